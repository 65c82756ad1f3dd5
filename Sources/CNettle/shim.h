// Nettle's AES-128 (Debian's nettle-dev): the block cipher behind resolvable private
// addresses' `ah` (AccessoryRadios/Bluetooth/NettleAES128.swift says why Nettle).
#include <nettle/aes.h>
