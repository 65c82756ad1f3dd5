"""Without any Wi-Fi interface accessoryd runs, says ready, and Bluetooth is unaffected;
a Wi-Fi interface that appears later is noticed through nl80211's config group."""

import re

from labkit import LabTestCase

WIFI_INTERFACE_APPEARED = "7fa7fa1c453e44d59e150e3d34bb61f1"
WIFI_INTERFACE_REMOVED = "43fcb43e06f249da90898ec17431557c"


class NoWiFiTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        cls.config = cls.lab.write_file("accessoryd.conf", "[Daemon]\nLogLevel=debug\n")

    def start(self):
        daemon = self.lab.start_daemon(
            [self.lab.binary("accessoryd"), "--config", self.config, "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        return daemon

    def test_lab_has_bluetooth_and_no_wifi(self):
        self.assertEqual(self.lab.wifi_interfaces(), [])
        self.assertEqual(len(self.lab.bluetooth_controllers()), 2)

    def test_probe_lists_every_bluetooth_controller_and_no_wifi(self):
        result = self.lab.run([self.lab.binary("accessoryd"), "--probe"], timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        names = sorted(re.match(r"bluetooth (hci\d+) ", line)[1] for line in lines if line.startswith("bluetooth "))
        self.assertEqual(names, sorted(c.name for c in self.lab.bluetooth_controllers()))
        self.assertEqual([line for line in lines if line.startswith("wifi ")], [])

    def test_daemon_is_ready_with_bluetooth_and_no_wifi(self):
        daemon = self.start()
        # STATUS= names each controller with what it does, and follows it: both scan soon.
        self.assertRegex(daemon.notifications("STATUS")[-1], r"^Bluetooth: hci0 \w+, hci1 \w+; Wi-Fi: none$")
        daemon.wait_notify("STATUS", "Bluetooth: hci0 scanning, hci1 scanning; Wi-Fi: none", timeout=30)
        self.assertEqual(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=WIFI_INTERFACE_APPEARED), [])
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd")
        self.assertEqual([e.get("MESSAGE") for e in entries if int(e.get("PRIORITY", "7")) <= 4], [])
        self.assertEqual(daemon.stop(), 0, daemon.output())

    def test_zz_interface_appearing_later_is_noticed_and_its_removal_too(self):
        daemon = self.start()
        # A radio arrives (a USB dongle plugged in, say): hwsim is loaded now.
        self.lab.run(["modprobe", "mac80211_hwsim", "radios=1"], timeout=60).check()
        self.lab.wait_until(lambda: self.lab.wifi_interfaces(), timeout=30, what="wlan0")
        appeared = self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd",
                                             MESSAGE_ID=WIFI_INTERFACE_APPEARED)
        self.assertEqual(appeared.get("WIFI_INTERFACE"), "wlan0")
        # STATUS= follows the hotplug both ways (it said what was true at start, issue 22).
        self.lab.wait_until(lambda: daemon.notifications("STATUS")[-1].endswith("; Wi-Fi: wlan0"), timeout=30,
                            what="STATUS= to list wlan0")
        self.lab.run(["rmmod", "mac80211_hwsim"], timeout=60).check()
        removed = self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd",
                                            MESSAGE_ID=WIFI_INTERFACE_REMOVED)
        self.assertEqual(removed.get("WIFI_INTERFACE"), "wlan0")
        self.lab.wait_until(lambda: daemon.notifications("STATUS")[-1].endswith("; Wi-Fi: none"), timeout=30,
                            what="STATUS= to drop wlan0")
        self.assertTrue(daemon.is_running())
        self.assertEqual(daemon.stop(), 0, daemon.output())
