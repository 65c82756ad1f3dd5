"""A Bluetooth LE controller of the test's own, on /dev/vhci: the kernel's real HCI core talks
to it as to a USB dongle, and the test decides what the "firmware" does, which btvirt cannot:
send a Hardware Error event, vanish mid-scan, come back.

It answers the kernel's init sequence and accessoryd's commands with Command Complete (LE only,
legacy scanning, a fixed public address), and while scanning is enabled (LE Set Scan Enable
with enable=1, as the last such command said) it reports one advertiser every 0.3 s, as a real
controller hearing a beacon would. A reset or a hardware error turns its scanning off: a real
controller forgets its scan state then too.
"""

import os
import select
import struct
import threading
import time

COMMAND, EVENT = 0x01, 0x04
COMMAND_COMPLETE, HARDWARE_ERROR, LE_META = 0x0E, 0x10, 0x3E
LE_SET_SCAN_ENABLE = 0x200C


def _address_bytes(text):
    return bytes(int(part, 16) for part in reversed(text.split(":")))


class VirtualController:
    def __init__(self, address, heard, adv_data, log=lambda line: None):
        self.address = address
        self.heard = heard                # the advertiser it reports while scanning
        self.adv_data = adv_data
        self.log = log
        self.commands = []            # opcodes received, in order
        self.scan_enables = []        # (time, enabled) per LE Set Scan Enable
        self.scanning = False
        self.reports_sent = 0
        self._lock = threading.Lock()
        self._closed = False
        self.fd = os.open("/dev/vhci", os.O_RDWR)
        # The vendor packet creating a primary controller; the answer carries its index.
        os.write(self.fd, b"\xff\x00")
        readable, _, _ = select.select([self.fd], [], [], 10)
        if not readable:
            raise AssertionError("hci_vhci did not answer the create request")
        answer = os.read(self.fd, 4096)
        if len(answer) < 4 or answer[0] != 0xFF:
            raise AssertionError(f"unexpected answer from hci_vhci: {answer.hex()}")
        self.name = f"hci{struct.unpack_from('<H', answer, 2)[0]}"
        self.log(f"vhci peer: {self.name} created ({address})")
        self._thread = threading.Thread(target=self._run, name=f"vhci {self.name}", daemon=True)
        self._thread.start()

    # What the test does to it ---------------------------------------------------------------

    def hardware_error(self, code=0x42):
        """The controller's firmware reports a fault; it has lost its state."""
        with self._lock:
            self.scanning = False
            self._send(HARDWARE_ERROR, bytes([code]))
        self.log(f"vhci peer: {self.name}: Hardware Error 0x{code:02x} sent")

    def close(self):
        """Unplugged: the kernel unregisters the controller."""
        if self._closed:
            return
        self._closed = True
        self._thread.join(timeout=5)
        os.close(self.fd)
        self.log(f"vhci peer: {self.name} closed (controller removed)")

    def enables_since(self, mark):
        """LE Set Scan Enable commands with enable=1 after the time `mark`."""
        with self._lock:
            return [at for at, enabled in self.scan_enables if enabled and at > mark]

    # The firmware ------------------------------------------------------------------------------

    def _send(self, code, parameters):
        os.write(self.fd, bytes([EVENT, code, len(parameters)]) + parameters)

    def _complete(self, opcode, parameters):
        self._send(COMMAND_COMPLETE, struct.pack("<BH", 1, opcode) + parameters)

    def _answer(self, opcode, parameters):
        status = b"\x00"
        if opcode == 0x0C03:                       # Reset
            self.scanning = False
            return status
        if opcode == 0x1001:                       # Read Local Version: 5.0, Linux Foundation
            return struct.pack("<BBHBHH", 0, 0x09, 0, 0x09, 0x05F1, 0)
        if opcode == 0x1002:                       # Read Local Supported Commands
            commands = bytearray(64)
            commands[26] = 0x0C                    # LE Set Scan Parameters, LE Set Scan Enable
            return status + bytes(commands)
        if opcode == 0x1003:                       # Read Local Features: LE, no BR/EDR
            return status + bytes([0, 0, 0, 0, 0x60, 0, 0, 0])
        if opcode == 0x1009:                       # Read BD_ADDR
            return status + _address_bytes(self.address)
        if opcode == 0x1005:                       # Read Buffer Size
            return struct.pack("<BHBHH", 0, 27, 0, 8, 0)
        if opcode == 0x2002:                       # LE Read Buffer Size
            return struct.pack("<BHB", 0, 27, 8)
        if opcode in (0x2003, 0x201C):             # LE Read Local Features, Supported States: none
            return status + bytes(8)
        if opcode == 0x200F:                       # LE Read Accept List Size
            return status + b"\x08"
        if opcode == LE_SET_SCAN_ENABLE:
            enabled = bool(parameters[0]) if parameters else False
            self.scanning = enabled
            self.scan_enables.append((time.monotonic(), enabled))
            return status
        if opcode in (0x0C01, 0x2001, 0x200B, 0x0C63, 0x2010, 0x2029):
            return status                          # event masks, scan parameters, list clears
        # Anything else: success with room for any return parameters the kernel reads.
        return status + bytes(248)

    def _report(self):
        address = _address_bytes(self.heard)
        report = bytes([0x02, 1, 0x00, 0x00]) + address + bytes([len(self.adv_data)]) + self.adv_data + bytes([0xC4])
        self._send(LE_META, report)
        self.reports_sent += 1

    def _run(self):
        last_report = 0.0
        while not self._closed:
            readable, _, _ = select.select([self.fd], [], [], 0.1)
            if readable:
                try:
                    packet = os.read(self.fd, 4096)
                except OSError:
                    return
                if len(packet) >= 4 and packet[0] == COMMAND:
                    opcode, length = struct.unpack_from("<HB", packet, 1)
                    with self._lock:
                        self.commands.append(opcode)
                        self._complete(opcode, self._answer(opcode, packet[4:4 + length]))
            with self._lock:
                if self.scanning and time.monotonic() - last_report >= 0.3:
                    last_report = time.monotonic()
                    self._report()
