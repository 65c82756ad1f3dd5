#!/usr/bin/python3
"""Records the kernel's HCI device events (stack-internal event 0xFD, EVT_SI_DEVICE) as a raw
HCI socket bound to no controller (HCI_DEV_NONE) receives them, while one btvirt controller is
registered, brought up, brought down and removed. Run as root inside the lab VM:

    vng --run /boot/vmlinuz-6.1.0-56-amd64 --user root --disable-kvm --rwdir /tmp/btcap \
        --exec 'python3 capture-device-events.py /tmp/btcap/lab-device-events.hex'

Writes one H4 packet per line in hex, after a comment line saying what was done before it."""

import socket
import struct
import subprocess
import sys
import time

SOL_HCI, HCI_FILTER, HCI_DEV_NONE = 0, 2, 0xFFFF
EVENT_PACKET, STACK_INTERNAL = 0x04, 0xFD

sock = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_RAW, socket.BTPROTO_HCI)
sock.bind((HCI_DEV_NONE,))
bit = STACK_INTERNAL & 63
sock.setsockopt(SOL_HCI, HCI_FILTER, struct.pack("<IIIHxx", 1 << EVENT_PACKET, 0, 1 << (bit - 32), 0))
sock.settimeout(1.0)

lines = []


def drain(step):
    lines.append(f"# after: {step}")
    while True:
        try:
            lines.append(sock.recv(512).hex())
        except socket.timeout:
            return


subprocess.run(["modprobe", "hci_vhci"], check=True)
btvirt = subprocess.Popen(["btvirt", "-L", "-l1"])
time.sleep(4)
drain("btvirt -L -l1 (hci0 registered)")
subprocess.run(["hciconfig", "hci0", "up"], check=True)
time.sleep(1)
drain("hciconfig hci0 up")
subprocess.run(["hciconfig", "hci0", "down"], check=True)
time.sleep(1)
drain("hciconfig hci0 down")
btvirt.terminate()
btvirt.wait()
time.sleep(2)
drain("btvirt terminated (hci0 removed)")

with open(sys.argv[1], "w") as out:
    out.write("\n".join(lines) + "\n")
