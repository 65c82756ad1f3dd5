"""accessoryd scans only while something needs Wi-Fi: without --monitor (and no app
asking) the radio is left alone; with --monitor the same radio finds the hotspot."""

import os
import signal
import subprocess
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


def scan_config(scan_type):
    return CONFIG + f"ScanType={scan_type}\n"


class WiFiDemandTests(LabTestCase):
    def test_a_scans_only_while_needed(self):  # first: the kernel's BSS cache must be empty
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

    def test_passive_scans_send_no_probe_request_active_ones_do(self):
        self.lab.run(["ip", "link", "set", "wlan0", "up"]).check()
        self.lab.run(["ip", "link", "set", "hwsim0", "up"]).check()  # hwsim's monitor of the whole air
        station = self.lab.wifi_interfaces()[0].address.lower()
        hotspot = self.lab.run(["cat", "/sys/class/net/wlan1/address"], netns="accessory").check().stdout.strip()
        heard = {}
        for scan_type in ("passive", "active"):
            capture_path = os.path.join(self.lab.evidence_dir, f"probe-requests-{scan_type}.txt")
            with open(capture_path, "w") as capture_file:
                capture = subprocess.Popen(
                    ["tcpdump", "-i", "hwsim0", "-n", "-e", "-l", "-Z", "root", "type mgt subtype probe-req"],
                    stdout=capture_file, stderr=subprocess.STDOUT)
            try:
                time.sleep(2)  # tcpdump is listening
                config = self.lab.write_file(f"accessoryd-{scan_type}.conf", scan_config(scan_type))
                daemon = self.lab.start_daemon(
                    ["stdbuf", "-oL", self.lab.binary("accessoryd"), "--config", config,
                     "--log-target=journal", "--monitor"])
                daemon.wait_ready(timeout=60)
                self.lab.wait_until(lambda: daemon.output().count(f" {hotspot} ") >= 2, timeout=60,
                                    what=f"the hotspot twice in a {scan_type} scan")
                self.assertEqual(daemon.stop(), 0, daemon.output())
            finally:
                capture.send_signal(signal.SIGINT)
                capture.wait(timeout=20)
            with open(capture_path) as handle:
                heard[scan_type] = handle.read().lower()
        self.assertNotIn(station, heard["passive"], "a passive scan sent a probe request")
        self.assertIn(station, heard["active"], "the capture saw no probe request of the active scan")
