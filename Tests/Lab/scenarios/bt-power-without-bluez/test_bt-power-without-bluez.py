"""Without bluetoothd nobody keeps a controller up: the kernel powers it off two seconds after it
appears. accessoryd powers the controller it uses itself (through the management interface), says
so once, scans and hears the sensor, keeps the controller up when it is powered down under it, and
STATUS= follows what the controller does."""

import re
import time

from labkit import LabTestCase
from labkit.message_ids import CONTROLLER_POWERED, SCAN_STARTED

# Flags 0x06; complete 16-bit UUIDs 180F; manufacturer FFFF = 2A 01; complete name "LabBulb".
ADV_DATA = bytes.fromhex("020106 03030f18 05ffffff2a01 08094c616242756c62".replace(" ", ""))
LINE = re.compile(r"^bluetooth (?P<controller>\S+) (?P<device>\S+) ")


def sightings(daemon, address):
    return len([line for line in daemon.output().splitlines()
                if (m := LINE.match(line)) and m["controller"] == "hci0" and m["device"].startswith(address)])


def heard(lab, daemon, address, after=0):
    if sightings(daemon, address) > after:
        return True
    lab.readvertise("hci1")
    time.sleep(0.5)
    return False


class PowerWithoutBluezTests(LabTestCase):
    def controller(self, name):
        return next(c for c in self.lab.bluetooth_controllers() if c.name == name)

    def test_accessoryd_powers_its_controller_and_hears_the_sensor(self):
        self.assertNotEqual(self.lab.run(["pgrep", "-x", "bluetoothd"]).returncode, 0, "bluetoothd must not run")
        # The kernel's auto-off: hci0 is down before accessoryd starts.
        self.lab.wait_until(lambda: not self.controller("hci0").up, timeout=30, what="hci0 to be powered off")
        self.lab.run(["hciconfig", "hci1", "up"]).check()  # the sensor's radio, not accessoryd's
        self.lab.advertise("hci1", ADV_DATA)
        address = self.controller("hci1").address

        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\nScanWatchdog=0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                        "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        entry = self.lab.wait_for_journal(timeout=30, MESSAGE_ID=CONTROLLER_POWERED, BLUETOOTH_CONTROLLER="hci0")
        self.assertIn("accessoryd powers it", entry["MESSAGE"])
        self.lab.wait_for_journal(timeout=30, MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0")
        self.assertTrue(self.controller("hci0").up)
        self.lab.wait_until(lambda: heard(self.lab, daemon, address), timeout=40, what="accessoryd to hear the sensor")
        daemon.wait_notify("STATUS", "Bluetooth: hci0 scanning; Wi-Fi: none", timeout=30)

        # Powered down under it (as the kernel's auto-off or an rfkill toggle would): powered again,
        # heard again, and not announced twice.
        self.lab.run(["hciconfig", "hci0", "down"]).check()
        self.lab.wait_until(lambda: self.controller("hci0").up, timeout=30, what="accessoryd to power hci0 again")
        before = sightings(daemon, address)
        self.lab.wait_until(lambda: heard(self.lab, daemon, address, after=before), timeout=40,
                            what="accessoryd to hear the sensor again")
        self.assertEqual(len(self.lab.journal_entries(MESSAGE_ID=CONTROLLER_POWERED)), 1)
        self.assertIn("Bluetooth: hci0 scanning; Wi-Fi: none", daemon.notifications("STATUS"))
        self.assertEqual(daemon.stop(), 0)
        # Left up for a restart or an upgrade: not cycled.
        self.assertTrue(self.controller("hci0").up)
