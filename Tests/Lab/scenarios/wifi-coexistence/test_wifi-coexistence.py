"""accessoryd scans on the interface wpa_supplicant is connected with: the connection
stays up, and scans refused with EBUSY (iw scanning at the same time) are recovered
from without a warning or an error."""

import os
import time

from labkit import LabTestCase

WIFI_SCANS_FAILING = "7f662d14034b493bb59e068aa6c585ea"

CONFIG = """\
[Daemon]
LogLevel=debug

[Wi-Fi]
ScanInterval=1
Frequencies=2412 2437
"""


class WiFiCoexistenceTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        cls.accessory_bssid = cls.lab.run(["cat", "/sys/class/net/wlan2/address"],
                                          netns="accessory").check().stdout.strip().lower()
        cls.station = cls.lab.start_wpa_supplicant("wlan0")
        cls.joined = cls.station.connect("Home-Gateway", psk="home-passphrase", timeout=60)
        # What wpa_supplicant logs from here on happens while accessoryd runs.
        cls.log_offset = os.path.getsize(cls.station.log_path)
        config = cls.lab.write_file("accessoryd.conf", CONFIG)
        cls.daemon = cls.lab.start_daemon(
            ["stdbuf", "-oL", cls.lab.binary("accessoryd"), "--config", config,
             "--log-target=journal", "--monitor"])
        cls.daemon.wait_ready(timeout=60)

        # While accessoryd scans every second, iw asks for full scans (every channel,
        # 5 GHz passively: seconds each), so accessoryd's triggers meet a busy radio.
        # iw's own EBUSY, when accessoryd got there first, is expected and ignored.
        cls.states, cls.busy, cls.iw_started = [], [], 0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            result = cls.lab.run(["iw", "dev", "wlan0", "scan", "trigger"], timeout=20)
            cls.iw_started += result.returncode == 0
            cls.states.append(cls.station.status().get("wpa_state"))
            cls.busy = cls.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="radio-busy")
            if len(cls.busy) >= 3 and cls.iw_started >= 3:
                break
            time.sleep(0.5)
        # Recovered: the accessory is reported again after the refusals.
        baseline = len(cls.daemon.output().splitlines())
        cls.heard_after_busy = cls.lab.wait_until(
            lambda: any(f" {cls.accessory_bssid} " in line
                        for line in cls.daemon.output().splitlines()[baseline:]),
            timeout=30, what="a monitor line for the accessory after the busy scans")
        # Scans go on after iw stops: at least three of accessoryd's own, started and
        # read (bounded wait; under emulation iw may have held the radio for most of
        # the loop). results-read alone would not do: accessoryd also reads the
        # results of iw's scans, so three reads can come with only two triggers.
        cls.lab.wait_until(
            lambda: (len(cls.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="scan-started")) >= 3
                     and len(cls.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="results-read")) >= 3),
            timeout=60, what="three scans of accessoryd's own, started and read")
        cls.final_status = cls.station.status()

    def test_lab_connected_first(self):
        self.assertEqual(self.joined.get("wpa_state"), "COMPLETED")
        self.assertEqual(self.joined.get("ssid"), "Home-Gateway")

    def test_scans_really_met_a_busy_radio(self):
        self.assertGreaterEqual(len(self.busy), 1, "no trigger was refused with EBUSY")
        self.assertGreaterEqual(self.iw_started, 1, "iw never got a scan in")

    def test_connection_stays_up_while_accessoryd_scans(self):
        self.assertTrue(self.states)
        self.assertEqual(set(self.states), {"COMPLETED"})
        self.assertEqual(self.final_status.get("wpa_state"), "COMPLETED")
        self.assertEqual(self.final_status.get("bssid"), self.joined.get("bssid"))

    def test_wpa_supplicant_never_disconnected(self):
        with open(self.station.log_path, "rb") as handle:
            handle.seek(self.log_offset)
            log = handle.read().decode(errors="replace")
        self.assertNotIn("CTRL-EVENT-DISCONNECTED", log)

    def test_accessoryd_scanned_repeatedly(self):
        started = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="scan-started")
        read = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="results-read")
        self.assertGreaterEqual(len(started), 3)
        self.assertGreaterEqual(len(read), 3)

    def test_busy_scans_are_recovered(self):
        # After the busy refusals, results were read again and the accessory still shows up.
        self.assertTrue(self.heard_after_busy)
        read = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="results-read")
        last_busy = max(int(entry["__REALTIME_TIMESTAMP"]) for entry in self.busy)
        self.assertTrue([entry for entry in read if int(entry["__REALTIME_TIMESTAMP"]) > last_busy],
                        "no results read after the last busy refusal")
        # The other scan's results were used: no wait for them ran out.
        self.assertEqual(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="results-timeout"), [])

    def test_no_warning_or_error_reaches_the_journal(self):
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd")
        loud = [entry.get("MESSAGE") for entry in entries if int(entry.get("PRIORITY", "7")) <= 4]
        self.assertEqual(loud, [])
        self.assertEqual(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd",
                                                  MESSAGE_ID=WIFI_SCANS_FAILING), [])

    def test_zz_stops_cleanly(self):
        self.assertEqual(self.daemon.stop(), 0, self.daemon.output())
