#!/bin/sh
# Lab capture of extended scanning for the AccessoryCodecs Bluetooth fixtures; runs inside the vng VM:
#   vng --run /boot/vmlinuz-6.1.0-56-amd64 --user root --disable-kvm --rwdir /tmp/btcap --exec /tmp/btcap/capture-extended.sh
# btvirt 5.66's dual-mode (5.x) controllers report extended advertising only
# up to 31 octets (more overflows its report buffer and aborts it).
set -x
OUT=/tmp/btcap/extcap
mkdir -p $OUT
modprobe hci_vhci
btvirt -l2 > $OUT/btvirt.log 2>&1 &
sleep 2
btmon -w $OUT/extended-scan.btsnoop > /dev/null 2>&1 &
MON=$!
sleep 0.5
hciconfig hci0 up || { sleep 1; hciconfig hci0 up; }
hciconfig hci1 up || { sleep 1; hciconfig hci1 up; }
# No bluetoothd/mgmt here: enable LE in the host features ourselves.
hcitool -i hci0 cmd 0x03 0x006D 01 00
hcitool -i hci1 cmd 0x03 0x006D 01 00
# What the agent reads first.
hcitool -i hci0 cmd 0x04 0x0002
hcitool -i hci0 cmd 0x08 0x0003
hcitool -i hci0 cmd 0x08 0x0001 1F 10 00 00 00 00 00 00
# Active extended scan on LE 1M, 0x0010/0x0010.
hcitool -i hci0 cmd 0x08 0x0041 00 00 01 01 10 00 10 00
hcitool -i hci0 cmd 0x08 0x0042 01 00 00 00 00 00
# Set 0: extended scannable (properties 0x0002), 100 ms, 1M/1M, SID 5.
hcitool -i hci1 cmd 0x08 0x0036 00 02 00 A0 00 00 A0 00 00 07 00 00 00 00 00 00 00 00 00 7F 01 00 01 05 00
# Scannable extended advertising carries its AD in the scan response: name "Lab Sensor".
hcitool -i hci1 cmd 0x08 0x0038 00 03 01 0C 0B 09 4C 61 62 20 53 65 6E 73 6F 72
# Set 1: legacy ADV_IND PDUs (properties 0x0013): flags, 128-bit UUID, service data, manufacturer data.
hcitool -i hci1 cmd 0x08 0x0036 01 13 00 A0 00 00 A0 00 00 07 00 00 00 00 00 00 00 00 00 7F 01 00 01 06 00
hcitool -i hci1 cmd 0x08 0x0037 01 03 01 1F 02 01 06 11 07 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E 04 16 0F 18 64 04 FF FF FF 2A
hcitool -i hci1 cmd 0x08 0x0039 01 02 00 00 00 00 01 00 00 00
sleep 1
hcitool -i hci1 cmd 0x08 0x0039 00 00
hcitool -i hci0 cmd 0x08 0x0042 00 00 00 00 00 00
sleep 0.3
kill $MON
sleep 0.3
btmon -r $OUT/extended-scan.btsnoop > $OUT/extended-scan.btmon.txt 2>&1
