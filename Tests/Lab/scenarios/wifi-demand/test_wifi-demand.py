"""accessoryd scans only while something needs Wi-Fi: without --monitor (and no app
asking) the radio is left alone; with --monitor the same radio finds the hotspot."""

import time

from labkit import LabTestCase

WIFI_INTERFACE_APPEARED = "7fa7fa1c453e44d59e150e3d34bb61f1"

CONFIG = """\
[Daemon]
LogLevel=debug

[Wi-Fi]
ScanInterval=1
Frequencies=2437
"""


class WiFiDemandTests(LabTestCase):
    def test_scans_only_while_needed(self):
        self.lab.run(["ip", "link", "set", "wlan0", "up"]).check()
        config = self.lab.write_file("accessoryd.conf", CONFIG)
        hotspot = self.lab.run(["cat", "/sys/class/net/wlan1/address"], netns="accessory").check().stdout.strip()

        idle = self.lab.start_daemon(
            [self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"])
        idle.wait_ready(timeout=60)
        self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=WIFI_INTERFACE_APPEARED)
        time.sleep(5)  # five ScanIntervals in which a daemon with demand would have scanned
        self.assertEqual(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="scan-started"), [])
        # The kernel agrees: nobody scanned, so its BSS cache is empty.
        self.assertNotIn(hotspot, self.lab.run(["iw", "dev", "wlan0", "scan", "dump"]).stdout)
        self.assertEqual(idle.stop(), 0, idle.output())

        monitor = self.lab.start_daemon(
            ["stdbuf", "-oL", self.lab.binary("accessoryd"), "--config", config, "--log-target=journal", "--monitor"])
        monitor.wait_ready(timeout=60)
        self.lab.wait_until(lambda: f" {hotspot} " in monitor.output(), timeout=60,
                            what="the hotspot in accessoryd --monitor")
        self.assertTrue(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="scan-started"))
        self.assertEqual(monitor.stop(), 0, monitor.output())
