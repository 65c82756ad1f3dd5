"""A Bluetooth controller's faults while accessoryd scans with it: the controller sends a
Hardware Error event (the kernel then closes and reopens it), and the controller is removed
mid-scan (its vhci file closed, as a USB dongle pulled out) and plugged in again. accessoryd
survives both, says so in the journal, and scans again: the controller receives LE Set Scan
Enable from it again and the advertiser the controller reports shows up in --monitor anew."""

import os
import re
import sys
import time

from labkit import LabTestCase
from labkit.message_ids import CONTROLLER_ADDED, CONTROLLER_REMOVED, RECOVERING, SCAN_STARTED

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vhci_peer import VirtualController  # noqa: E402


CONTROLLER = "00:AA:FA:17:00:01"
BEACON = "00:AB:FA:17:00:02"
# Flags 0x06; complete name "Fault Beacon".
ADV_DATA = bytes.fromhex("020106 0d094661756c7420426561636f6e".replace(" ", ""))


class ControllerFaultTests(LabTestCase):
    def setUp(self):
        self.lab.run(["modprobe", "hci_vhci"]).check()
        self.peer = self.plug_in()
        # Closed before the lab's reset unloads hci_vhci, whatever happens.
        self.addCleanup(lambda: self.peer.close())
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nScanWatchdog=0\n")
        self.daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                             "--log-target=journal", "--monitor"])
        self.daemon.wait_ready(timeout=90)

    def plug_in(self):
        peer = VirtualController(CONTROLLER, BEACON, ADV_DATA, log=self.lab.log)
        self.lab.run(["hciconfig", peer.name, "up"], timeout=60).check()
        return peer

    def beacon_lines(self):
        return [line for line in self.daemon.output().splitlines()
                if line.startswith("bluetooth ") and f" {BEACON}/public " in line]

    def entries(self, message_id):
        return self.lab.journal_entries(MESSAGE_ID=message_id)

    def wait_alive(self, predicate, timeout, what):
        def check():
            if not self.daemon.is_running():
                raise AssertionError(f"accessoryd exited:\n{self.daemon.output()}")
            return predicate()
        return self.lab.wait_until(check, timeout=timeout, what=what)

    def wait_scanning_and_heard(self, mark_time, mark_lines, what):
        self.wait_alive(lambda: self.peer.enables_since(mark_time), 60, f"LE Set Scan Enable from accessoryd {what}")
        self.wait_alive(lambda: len(self.beacon_lines()) > mark_lines, 60, f"the beacon in --monitor {what}")

    def test_hardware_error_mid_scan(self):
        self.wait_scanning_and_heard(0, 0, "at start")
        self.assertIn('name="Fault Beacon"', self.beacon_lines()[0])
        recovering = len(self.entries(RECOVERING))
        mark_time, mark_lines = time.monotonic(), len(self.beacon_lines())
        self.peer.hardware_error(0x42)
        entry = self.wait_alive(
            lambda: next((e for e in self.entries(RECOVERING)[recovering:] if "0x42" in e.get("MESSAGE", "")), None),
            60, "accessoryd to log the Hardware Error and its recovery")
        self.assertEqual(entry.get("PRIORITY"), "4")  # warning
        self.wait_scanning_and_heard(mark_time, mark_lines, "after the Hardware Error")
        self.assertTrue(self.daemon.is_running())
        self.assertEqual(self.daemon.stop(), 0)

    def test_removed_mid_scan_and_plugged_in_again(self):
        self.wait_scanning_and_heard(0, 0, "at start")
        removed, added = len(self.entries(CONTROLLER_REMOVED)), len(self.entries(CONTROLLER_ADDED))
        name = self.peer.name
        self.peer.close()
        self.wait_alive(lambda: len(self.entries(CONTROLLER_REMOVED)) > removed, 60,
                        f"accessoryd to log {name} removed")
        self.lab.wait_until(lambda: not os.path.exists(f"/sys/class/bluetooth/{name}"), 30,
                            f"{name} to be gone")
        time.sleep(2)  # accessoryd carries on without a controller for a while
        self.assertTrue(self.daemon.is_running())

        mark_time, mark_lines = time.monotonic(), len(self.beacon_lines())
        self.peer = self.plug_in()
        self.wait_alive(lambda: len(self.entries(CONTROLLER_ADDED)) > added, 60,
                        f"accessoryd to take {self.peer.name} up")
        self.wait_scanning_and_heard(mark_time, mark_lines, "after the controller came back")
        self.assertEqual(self.daemon.stop(), 0)
