#!/bin/sh
# Lab capture for the AccessoryCodecs Bluetooth fixtures; runs inside the vng VM:
#   vng --run /boot/vmlinuz-6.1.0-56-amd64 --user root --disable-kvm --rwdir /tmp/btcap --exec /tmp/btcap/capture.sh
# then copy /tmp/btcap/out/*.btsnoop and *.btmon.txt here (renamed lab-*).
set -x
OUT=/tmp/btcap/out
mkdir -p $OUT
cd $OUT
modprobe hci_vhci
btvirt -L -l2 > $OUT/btvirt.log 2>&1 &
sleep 1.5

# --- Capture 1: controller init, round-trip commands, passive scan of a rich advertiser ---
btmon -w $OUT/passive-scan.btsnoop > /dev/null 2>&1 &
MON=$!
sleep 0.5
hciconfig hci0 up
hciconfig hci1 up
# Commands the agent sends, for the encoder round trip.
hcitool -i hci0 cmd 0x04 0x0001
hcitool -i hci0 cmd 0x04 0x0002
hcitool -i hci0 cmd 0x08 0x0003
hcitool -i hci0 cmd 0x08 0x0001 1F 10 00 00 00 00 00 00
# Passive scan: interval 0x0010, window 0x0010, public own address, accept all.
hcitool -i hci0 cmd 0x08 0x000B 00 10 00 10 00 00 00
hcitool -i hci0 cmd 0x08 0x000C 01 00
# Advertiser on hci1: ADV_NONCONN_IND.
hcitool -i hci1 cmd 0x08 0x0006 A0 00 A0 00 03 00 00 00 00 00 00 00 00 07 00
# Payload A: flags, complete 128-bit UUID list (Nordic UART 6E400001-B5A3-F393-E0A9-E50E24DCCA9E),
# service data 180F = 0x64, manufacturer data 0xFFFF = 0x2A.
hcitool -i hci1 cmd 0x08 0x0008 1F 02 01 06 11 07 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E 04 16 0F 18 64 04 FF FF FF 2A
hcitool -i hci1 cmd 0x08 0x000A 01
sleep 0.5
hcitool -i hci1 cmd 0x08 0x000A 00
# Payload B: flags, complete name "Lab Sensor", complete 16-bit list 180F, TX power -8,
# appearance 0x0300, manufacturer data 0xFFFF = 0x2B.
hcitool -i hci1 cmd 0x08 0x0008 1F 02 01 06 0B 09 4C 61 62 20 53 65 6E 73 6F 72 03 03 0F 18 02 0A F8 03 19 00 03 04 FF FF FF 2B
hcitool -i hci1 cmd 0x08 0x000A 01
sleep 0.5
# Set Scan Parameters while scanning: the controller must answer Command Disallowed.
hcitool -i hci0 cmd 0x08 0x000B 00 10 00 10 00 00 00
hcitool -i hci0 cmd 0x08 0x000C 00 00
hcitool -i hci1 cmd 0x08 0x000A 00
# Extended scanning (this LE-only emulated controller does not support it: real error replies).
hcitool -i hci0 cmd 0x08 0x0041 00 00 01 00 10 00 10 00
hcitool -i hci0 cmd 0x08 0x0042 01 00 00 00 00 00
sleep 0.3
kill $MON
sleep 0.3

# --- Capture 2: active scan of a scannable advertiser whose name is only in the scan response ---
btmon -w $OUT/active-scan-response.btsnoop > /dev/null 2>&1 &
MON=$!
sleep 0.5
# Active scan.
hcitool -i hci0 cmd 0x08 0x000B 01 10 00 10 00 00 00
# ADV_SCAN_IND.
hcitool -i hci1 cmd 0x08 0x0006 A0 00 A0 00 02 00 00 00 00 00 00 00 00 07 00
# Advertising: flags, incomplete 16-bit list 180F, manufacturer data 0xFFFF = 01 02 03 04.
hcitool -i hci1 cmd 0x08 0x0008 0F 02 01 06 03 02 0F 18 07 FF FF FF 01 02 03 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
# Scan response: complete name "Porch Light", TX power +4, complete 32-bit list 12345678.
hcitool -i hci1 cmd 0x08 0x0009 16 0C 09 50 6F 72 63 68 20 4C 69 67 68 74 02 0A 04 05 05 78 56 34 12 00 00 00 00 00 00 00 00 00 00
hcitool -i hci1 cmd 0x08 0x000A 01
hcitool -i hci0 cmd 0x08 0x000C 01 00
sleep 0.5
hcitool -i hci1 cmd 0x08 0x000A 00
hcitool -i hci1 cmd 0x08 0x000A 01
sleep 0.5
hcitool -i hci0 cmd 0x08 0x000C 00 00
hcitool -i hci1 cmd 0x08 0x000A 00
sleep 0.3
kill $MON
sleep 0.3
btmon -r $OUT/passive-scan.btsnoop > $OUT/passive-scan.btmon.txt 2>&1
btmon -r $OUT/active-scan-response.btsnoop > $OUT/active-scan-response.btmon.txt 2>&1
ls -la $OUT
