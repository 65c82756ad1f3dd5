"""accessoryd hears an LE advertiser through the kernel's HCI sockets with every field right,
sees its data change, and keeps hearing it without a restart when the advertiser's controller or
the scanning controller goes down and up, and when both vanish and come back (btvirt restarted).
The scan watchdog restarts a silent scan, and on exit the scan is left off as it was found."""

import re
import subprocess
import time

from labkit import LabTestCase
from labkit.message_ids import CONTROLLER_ADDED, CONTROLLER_REMOVED, SCAN_STARTED, SCAN_WATCHDOG


ADV_DATA = bytes.fromhex("020106 03030f18 04160f1864 05ffffff2a01 08094c616242756c62".replace(" ", ""))
# The same advertiser after a firmware update: new manufacturer data and name.
CHANGED_DATA = bytes.fromhex("020106 03030f18 04160f1865 05ffffff2b02 08094c61624c616d70".replace(" ", ""))

LINE = re.compile(r"^bluetooth (?P<controller>\S+) (?P<device>\S+)(?P<fields>( \S+=(\"(?:[^\"\\]|\\.)*\"|\S+))*)$")
FIELD = re.compile(r"(\w+)=(\"(?:[^\"\\]|\\.)*\"|\S+)")


def monitor_lines(daemon):
    """The daemon's --monitor lines for Bluetooth, parsed: [(controller, device, {key: value})]."""
    parsed = []
    for line in daemon.output().splitlines():
        match = LINE.match(line)
        if match:
            parsed.append((match["controller"], match["device"], dict(FIELD.findall(match["fields"]))))
    return parsed


class DiscoveryTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.advertiser_device = controllers["hci1"].address + "/public"

    def start(self, config=""):
        path = self.lab.write_file(f"accessoryd-{self.id().rsplit('.', 1)[-1]}.conf", config)
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", path,
                                        "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        return daemon

    def entries(self, message_id):
        """hci0's journal entries with this MESSAGE_ID, from every test of the scenario so far."""
        return self.lab.journal_entries(MESSAGE_ID=message_id, BLUETOOTH_CONTROLLER="hci0")

    def wait_for_new_entry(self, message_id, before, what, timeout=30):
        self.lab.wait_until(lambda: len(self.entries(message_id)) > before, timeout=timeout, what=what)

    def wait_for_line(self, daemon, predicate=lambda fields: True, after=0, poke=True, timeout=40,
                      what="a monitor line of the advertiser"):
        """The first line heard on hci0 from the advertiser past the first `after` that satisfies
        `predicate`; toggles the advertiser meanwhile (btvirt reports on (re)enable only)."""
        last_poke = [0.0]

        def found():
            if not daemon.is_running():
                raise AssertionError(f"accessoryd exited:\n{daemon.output()}")
            lines = [fields for controller, device, fields in monitor_lines(daemon)[after:]
                     if controller == "hci0" and device == self.advertiser_device]
            matching = [fields for fields in lines if predicate(fields)]
            if matching:
                return matching[0]
            if poke and time.monotonic() - last_poke[0] >= 1:
                last_poke[0] = time.monotonic()
                self.lab.readvertise("hci1")
            return None
        return self.lab.wait_until(found, timeout=timeout, what=what)

    def test_every_field_is_heard_right(self):
        daemon = self.start()
        fields = self.wait_for_line(daemon)
        self.assertEqual(fields["name"], '"LabBulb"')
        self.assertEqual(fields["uuids"], "180F")
        self.assertEqual(fields["service_data"], "180F:64")
        self.assertEqual(fields["manufacturer"], "ffff:2a01")
        self.assertEqual(fields["flags"], "0x06")
        self.assertEqual(fields["connectable"], "yes")  # ADV_IND
        self.assertEqual(fields["scannable"], "yes")
        self.assertIn("rssi", fields)
        entry = self.lab.wait_for_journal(MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0")
        # No app declares names, so ScanMode=auto scans passively; btvirt's LE-only controllers are legacy.
        self.assertEqual(entry.get("BLUETOOTH_SCAN_TYPE"), "passive")
        self.assertEqual(entry.get("BLUETOOTH_SCAN_PROCEDURE"), "legacy")
        self.assertEqual(daemon.stop(), 0)

    def test_changed_data_is_seen(self):
        daemon = self.start()
        self.wait_for_line(daemon)
        mark = len(monitor_lines(daemon))
        self.lab.advertiser("hci1").set_data(CHANGED_DATA)
        fields = self.wait_for_line(daemon, lambda f: f.get("manufacturer") == "ffff:2b02", after=mark,
                                    what="the changed advertisement")
        self.assertEqual(fields["name"], '"LabLamp"')
        self.assertEqual(fields["service_data"], "180F:65")
        self.lab.advertiser("hci1").set_data(ADV_DATA)
        self.assertEqual(daemon.stop(), 0)

    def test_advertiser_controller_down_and_up(self):
        daemon = self.start()
        self.wait_for_line(daemon)
        self.lab.run(["hciconfig", "hci1", "down"]).check()
        self.lab.run(["hciconfig", "hci1", "up"]).check()
        self.lab.advertise("hci1", ADV_DATA)  # a controller forgets its advertising when it goes down
        mark = len(monitor_lines(daemon))
        self.wait_for_line(daemon, after=mark, what="the advertiser again after hci1 went down and up")
        self.assertEqual(daemon.stop(), 0)

    def test_scanning_controller_down_and_up(self):
        daemon = self.start()
        self.wait_for_line(daemon)
        removed, added = len(self.entries(CONTROLLER_REMOVED)), len(self.entries(CONTROLLER_ADDED))
        self.lab.run(["hciconfig", "hci0", "down"]).check()
        self.wait_for_new_entry(CONTROLLER_REMOVED, removed, "accessoryd to drop hci0")
        mark = len(monitor_lines(daemon))
        self.lab.run(["hciconfig", "hci0", "up"]).check()
        self.wait_for_new_entry(CONTROLLER_ADDED, added, "accessoryd to take hci0 up again")
        self.wait_for_line(daemon, after=mark, what="the advertiser again after hci0 went down and up")
        self.assertEqual(daemon.stop(), 0)

    def test_both_controllers_removed_and_added(self):
        daemon = self.start()
        self.wait_for_line(daemon)
        removed, added = len(self.entries(CONTROLLER_REMOVED)), len(self.entries(CONTROLLER_ADDED))
        hardware = self.lab._hardware  # labkit has no public helper to restart btvirt yet
        hardware.controllers.stop()
        self.wait_for_new_entry(CONTROLLER_REMOVED, removed, "accessoryd to drop the removed hci0")
        mark = len(monitor_lines(daemon))
        hardware.controllers.start(2, f"{self.lab.evidence_dir}/btvirt-restarted.log", log=self.lab.log)
        self.wait_for_new_entry(CONTROLLER_ADDED, added, "accessoryd to take the new hci0")
        self.lab.advertise("hci1", ADV_DATA)
        self.advertiser_device = {c.name: c for c in self.lab.bluetooth_controllers()}["hci1"].address + "/public"
        self.wait_for_line(daemon, after=mark, what="the advertiser after btvirt was restarted")
        self.assertTrue(daemon.is_running())
        self.assertEqual(daemon.stop(), 0)

    def test_watchdog_restarts_a_silent_scan(self):
        daemon = self.start("[Bluetooth]\nScanWatchdog=3s\n")
        self.wait_for_line(daemon)
        mark = len(monitor_lines(daemon))
        restarts = len(self.entries(SCAN_WATCHDOG))
        # No toggling: btvirt reports again only because the watchdog restarts the scan.
        self.wait_for_new_entry(SCAN_WATCHDOG, restarts, "the scan watchdog to restart the silent scan")
        self.wait_for_line(daemon, after=mark, poke=False, what="a report after the watchdog restart")
        self.assertEqual(daemon.stop(), 0)

    def lescan_output(self, controller):
        """hcitool's own scan for two seconds: it fails when someone else scans or owns the controller."""
        scan = subprocess.Popen(["hcitool", "-i", controller, "lescan", "--duplicates"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(2)
        scan.send_signal(2)
        output, _ = scan.communicate(timeout=20)
        return output

    def test_exclusive_controller_is_ours_alone_and_given_back(self):
        daemon = self.start("[Bluetooth]\nControllers=hci0\nExclusiveControllers=hci0\n")
        fields = self.wait_for_line(daemon)
        self.assertEqual(fields["manufacturer"], "ffff:2a01")
        entry = self.lab.wait_for_journal(MESSAGE_ID=CONTROLLER_ADDED, BLUETOOTH_CONTROLLER="hci0",
                                          BLUETOOTH_EXCLUSIVE="true")
        self.assertIn("exclusive", entry["MESSAGE"])
        self.assertIn("failed", self.lescan_output("hci0"), "the user channel keeps other HCI users out")
        self.assertEqual(daemon.stop(), 0)
        self.lab.wait_until(lambda: {c.name: c.up for c in self.lab.bluetooth_controllers()}.get("hci0"),
                            timeout=20, what="hci0 to be up again after accessoryd gave it back")
        self.assertNotIn("failed", self.lescan_output("hci0"))

    def test_exit_leaves_the_scan_as_found(self):
        daemon = self.start()
        self.wait_for_line(daemon)
        self.assertEqual(daemon.stop(), 0)
        # Scanning left on would make hcitool's Set Scan Parameters fail with Command Disallowed.
        output = self.lescan_output("hci0")
        self.assertNotIn("failed", output)
        self.assertIn("LE Scan", output)
