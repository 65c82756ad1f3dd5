"""accessoryd powers hci0 while no bluetoothd runs; bluetoothd starting later takes the controller
over without a fight: accessoryd says it leaves power to bluetoothd, does not power the controller
when bluetoothd powers it off, and uses it again when bluetoothd powers it on. When bluetoothd stops
(it powers its controllers off on the way out), accessoryd powers hci0 again by itself."""

import re
import time

from labkit import LabTestCase
from labkit.message_ids import CONTROLLER_POWERED, SCAN_STARTED

ADV_DATA = bytes.fromhex("020106 03030f18 05ffffff2a01 08094c616242756c62".replace(" ", ""))
LINE = re.compile(r"^bluetooth (?P<controller>\S+) (?P<device>\S+) ")
ASKED = "hci0: asking the kernel to power it"


class BluezLaterTests(LabTestCase):
    def controller(self, name):
        return next(c for c in self.lab.bluetooth_controllers() if c.name == name)

    def accessoryd_messages(self, text):
        return [e for e in self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd") if text in e.get("MESSAGE", "")]

    def sightings(self, daemon):
        return len([line for line in daemon.output().splitlines()
                    if (m := LINE.match(line)) and m["controller"] == "hci0" and m["device"].startswith(self.sensor)])

    def wait_heard(self, daemon, what):
        after = self.sightings(daemon)

        def heard():
            if self.sightings(daemon) > after:
                return True
            self.lab.readvertise("hci1")
            time.sleep(0.5)
            return False
        self.lab.wait_until(heard, timeout=40, what=what)

    def sensor_up(self):
        """The sensor's radio (hci1) up and advertising; bluetoothd's start and stop reset it."""
        if not self.controller("hci1").up:
            self.lab.run(["hciconfig", "hci1", "up"]).check()
        self.lab.advertise("hci1", ADV_DATA)

    def adapter_is_powered(self):
        """What bluetoothd says of hci0 (nothing while it does not know it yet)."""
        return self.lab.run(["busctl", "--system", "get-property", "org.bluez", "/org/bluez/hci0",
                             "org.bluez.Adapter1", "Powered"]).stdout.strip() == "b true"

    def adapter_powered(self, powered):
        self.lab.run(["busctl", "--system", "set-property", "org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1",
                      "Powered", "b", "true" if powered else "false"]).check()

    def test_bluetoothd_takes_over_cleanly(self):
        self.assertNotEqual(self.lab.run(["pgrep", "-x", "bluetoothd"]).returncode, 0, "bluetoothd must not run yet")
        self.lab.wait_until(lambda: not self.controller("hci0").up, timeout=30, what="hci0 to be powered off")
        self.sensor_up()
        self.sensor = self.controller("hci1").address
        config = self.lab.write_file("accessoryd.conf",
                                     "[Daemon]\nLogLevel=debug\n[Bluetooth]\nControllers=hci0\nScanWatchdog=0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                        "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        self.lab.wait_for_journal(timeout=30, MESSAGE_ID=CONTROLLER_POWERED, BLUETOOTH_CONTROLLER="hci0")
        self.wait_heard(daemon, "accessoryd to hear the sensor on the controller it powered")

        # bluetoothd starts: it finds hci0 powered and makes it its own.
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
        self.lab.wait_until(lambda: self.accessoryd_messages("leaving the power of hci0 to it"), timeout=30,
                            what="accessoryd to leave power to bluetoothd")
        self.lab.wait_until(lambda: self.adapter_is_powered(), timeout=30, what="bluetoothd to hold hci0 powered")
        self.sensor_up()
        self.wait_heard(daemon, "accessoryd to hear the sensor beside bluetoothd")

        # bluetoothd powers hci0 off: accessoryd leaves it off, sending nothing.
        asked = len(self.accessoryd_messages(ASKED))
        self.adapter_powered(False)
        self.lab.wait_until(lambda: not self.controller("hci0").up, timeout=30, what="bluetoothd to power hci0 off")
        time.sleep(5)  # an observation window: a fight would show within milliseconds
        self.assertFalse(self.controller("hci0").up, "accessoryd powered hci0 against bluetoothd")
        self.assertEqual(len(self.accessoryd_messages(ASKED)), asked, "accessoryd asked to power hci0 under bluetoothd")

        # bluetoothd powers it on again: accessoryd scans on it again.
        started = len(self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0"))
        self.adapter_powered(True)
        self.lab.wait_until(lambda: len(self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0"))
                            > started, timeout=30, what="accessoryd to scan hci0 again")
        self.wait_heard(daemon, "accessoryd to hear the sensor once bluetoothd powered hci0 again")

        # bluetoothd stops and powers its controllers off: nobody manages hci0 again, accessoryd powers it.
        bluetoothd.stop()
        self.lab.wait_until(lambda: len(self.accessoryd_messages(ASKED)) > asked and self.controller("hci0").up,
                            timeout=30, what="accessoryd to power hci0 after bluetoothd left")
        self.sensor_up()
        self.wait_heard(daemon, "accessoryd to hear the sensor after bluetoothd left")
        self.assertEqual(len(self.lab.journal_entries(MESSAGE_ID=CONTROLLER_POWERED)), 1, "said once per controller")
        self.assertEqual(daemon.stop(), 0)
