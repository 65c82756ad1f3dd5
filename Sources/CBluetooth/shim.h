#pragma once
// Only the kernel's socket ABI (structs and constants) is taken from BlueZ's
// headers; no libbluetooth function is called, so nothing of it is linked.
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

// ioctl request numbers are function-like macros, which Swift cannot import.
static const unsigned long accessory_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long accessory_HCIGETDEVINFO = HCIGETDEVINFO;
static const unsigned long accessory_HCIDEVUP = HCIDEVUP;
static const unsigned long accessory_HCIDEVDOWN = HCIDEVDOWN;
