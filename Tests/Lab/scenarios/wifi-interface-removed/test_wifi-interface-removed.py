"""An nl80211 interface removed while accessoryd scans with it (issue 12, point 5):
accessoryd survives, says so once in the journal, stops scanning the interface, and
goes on scanning with the one that remains and answering on the bus."""

from labkit import LabTestCase

CONFIG = """\
[Daemon]
LogLevel=debug

[Wi-Fi]
ScanInterval=2
Frequencies=2412
"""
WIFI_INTERFACE_REMOVED = "43fcb43e06f249da90898ec17431557c"


def heard_on(output, interface, bssid):
    return any(line.startswith(f"wifi {interface} {bssid} ") for line in output.splitlines())


class InterfaceRemovedTests(LabTestCase):
    def events(self, event, interface):
        return self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT=event, WIFI_INTERFACE=interface)

    def test_interface_deleted_while_scanning(self):
        lab = self.lab
        bssid = lab.run(["cat", "/sys/class/net/wlan2/address"], netns="accessory").check().stdout.strip().lower()
        for interface in ("wlan0", "wlan1"):
            lab.run(["ip", "link", "set", interface, "up"]).check()
        config = lab.write_file("accessoryd.conf", CONFIG)
        # --monitor: something needs Wi-Fi, so both interfaces are scanned.
        daemon = lab.start_daemon(["stdbuf", "-oL", lab.binary("accessoryd"), "--config", config,
                                   "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        lab.wait_until(lambda: heard_on(daemon.output(), "wlan0", bssid) and heard_on(daemon.output(), "wlan1", bssid),
                       timeout=120, what="the camera heard on wlan0 and on wlan1")

        # Deleted while scans run on it (every 2 s).
        lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="scan-started", WIFI_INTERFACE="wlan1")
        lab.run(["iw", "dev", "wlan1", "del"]).check()
        removed = lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=WIFI_INTERFACE_REMOVED)
        self.assertEqual(removed.get("WIFI_INTERFACE"), "wlan1")
        self.assertTrue(daemon.is_running(), daemon.output())

        # What remains is still scanned; the deleted one is not asked again.
        started_on_wlan1 = len(self.events("scan-started", "wlan1"))
        read_on_wlan0 = len(self.events("results-read", "wlan0"))
        lab.wait_until(lambda: len(self.events("results-read", "wlan0")) >= read_on_wlan0 + 3, timeout=90,
                       what="three more reads of wlan0's results")
        self.assertEqual(len(self.events("scan-started", "wlan1")), started_on_wlan1)
        self.assertEqual(len(lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=WIFI_INTERFACE_REMOVED)), 1,
                         "said once")

        # Still on the bus.
        answer = lab.run(["busctl", "call", "org.accessoryagent", "/org/accessoryagent",
                          "org.accessoryagent.Admin1", "ListAccessories"], timeout=30)
        self.assertEqual(answer.returncode, 0, answer.stderr)
        self.assertEqual(daemon.stop(), 0, daemon.output())
