"""accessoryd --monitor finds five accessory hotspots through nl80211 and reports each
with its exact SSID bytes, BSSID, frequency, channel, signal and security; SSID and
SSID-prefix descriptors match exactly the hotspots they should."""

import re

from labkit import LabTestCase

# One line per BSS update (MonitorLine+WiFi.swift):
# wifi IFACE BSSID ssid=HEX freq=MHZ channel=N signal=DBM security=S name="DISPLAY"[ matches=A#ID,...]
WIFI_LINE = re.compile(
    r'^wifi (?P<interface>\S+) (?P<bssid>[0-9a-f]{2}(?::[0-9a-f]{2}){5}) ssid=(?P<ssid>(?:[0-9a-f]{2})*) '
    r'freq=(?P<freq>\d+) channel=(?P<channel>\d+|\?) signal=(?P<signal>-?\d+|\?) security=(?P<security>\S+) '
    r'name="(?P<name>(?:[^"\\]|\\.)*)"(?: matches=(?P<matches>\S+))?$')

LAMP = 'Lamp \U0001f4a1 "Hue" \\ 2'.encode()

# interface in the accessory namespace -> what accessoryd must report for it
HOTSPOTS = {
    "wlan1": dict(ssid=b"Camera-Setup-0A1B", freq=2412, channel=1, security="open",
                  name="Camera-Setup-0A1B", matches={1}),
    "wlan2": dict(ssid=b"Vendor-4F2C", freq=2437, channel=6, security="wpa2-psk",
                  name="Vendor-4F2C", matches={2}),
    "wlan3": dict(ssid=b"Vendor-SAE-77", freq=2462, channel=11, security="wpa3-sae",
                  name="Vendor-SAE-77", matches={2}),
    # Display form: UTF-8 as it is with the backslash doubled; in the line, " is escaped as \".
    "wlan4": dict(ssid=LAMP, freq=2437, channel=6, security="open",
                  name='Lamp \U0001f4a1 \\"Hue\\" \\\\ 2', matches={3}),
    # Not UTF-8: byte by byte, \xNN escapes for what is not printable ASCII.
    "wlan5": dict(ssid=b"Vendor-\xff\xfe-9", freq=2462, channel=11, security="wpa2-psk",
                  name="Vendor-\\xff\\xfe-9", matches={2, 4}),
}

# Descriptor ids are the sections' positions, from 1.
DESCRIPTORS = """\
[Descriptor camera]
App=lab
SSID=Camera-Setup-0A1B

[Descriptor vendor-plugs]
App=lab
SSIDPrefix=Vendor-

[Descriptor lamp]
App=lab
SSID=Lamp \U0001f4a1 "Hue" \\\\ 2

[Descriptor raw-plug]
App=lab
SSID=Vendor-\\xff\\xfe-9

[Descriptor nothing]
App=lab
SSIDPrefix=Nothing-

[Descriptor camera-lowercase]
App=lab
SSIDPrefix=camera-
"""

CONFIG = """\
[Daemon]
LogLevel=debug

[Wi-Fi]
ScanInterval=2
Frequencies=2412 2437 2462
"""


def parse(output):
    """{bssid: last monitor line's fields} and every line that did not parse."""
    latest, unparsed = {}, []
    for line in output.splitlines():
        if not line.startswith("wifi "):
            continue
        match = WIFI_LINE.match(line)
        if match:
            latest[match["bssid"]] = match.groupdict()
        else:
            unparsed.append(line)
    return latest, unparsed


def descriptor_ids(matches):
    return {int(part.rsplit("#", 1)[1]) for part in matches.split(",")} if matches else set()


class WiFiDiscoveryTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        cls.bssids = {
            interface: cls.lab.run(["cat", f"/sys/class/net/{interface}/address"],
                                   netns="accessory").check().stdout.strip().lower()
            for interface in HOTSPOTS}
        cls.lab.run(["ip", "link", "set", "wlan0", "up"]).check()
        config = cls.lab.write_file("accessoryd.conf", CONFIG)
        descriptors = cls.lab.write_file("descriptors.conf", DESCRIPTORS)
        # stdbuf: stdout is a file here, and the monitor's lines are wanted as they come.
        cls.daemon = cls.lab.start_daemon(
            ["stdbuf", "-oL", cls.lab.binary("accessoryd"), "--config", config, "--log-target=journal",
             "--monitor", "--descriptors", descriptors])
        cls.daemon.wait_ready(timeout=60)

        def all_heard():
            latest, _ = parse(cls.daemon.output())
            return all(bssid in latest for bssid in cls.bssids.values()) and latest
        try:
            cls.lab.wait_until(all_heard, timeout=120, what="every hotspot in accessoryd --monitor")
        finally:
            cls.latest, cls.unparsed = parse(cls.daemon.output())
        cls.iw = cls.lab.run(["iw", "dev", "wlan0", "scan", "dump"]).stdout

    def line(self, interface):
        bssid = self.bssids[interface]
        self.assertIn(bssid, self.latest, f"{interface} ({bssid}) never reported:\n{self.daemon.output()}")
        return self.latest[bssid]

    def test_every_wifi_line_has_the_documented_format(self):
        self.assertEqual(self.unparsed, [])

    def test_reports_the_exact_ssid_bytes(self):
        for interface, expected in HOTSPOTS.items():
            with self.subTest(hotspot=interface):
                self.assertEqual(bytes.fromhex(self.line(interface)["ssid"]), expected["ssid"])

    def test_reports_the_display_form(self):
        for interface, expected in HOTSPOTS.items():
            with self.subTest(hotspot=interface):
                self.assertEqual(self.line(interface)["name"], expected["name"])

    def test_reports_interface_frequency_and_channel(self):
        for interface, expected in HOTSPOTS.items():
            with self.subTest(hotspot=interface):
                line = self.line(interface)
                self.assertEqual(line["interface"], "wlan0")
                self.assertEqual(int(line["freq"]), expected["freq"])
                self.assertEqual(int(line["channel"]), expected["channel"])

    def test_reports_the_signal_the_kernel_measured(self):
        for interface in HOTSPOTS:
            with self.subTest(hotspot=interface):
                bssid = self.bssids[interface]
                section = self.iw.split(f"BSS {bssid}", 1)
                self.assertEqual(len(section), 2, f"iw does not list {bssid}:\n{self.iw}")
                signal = re.search(r"signal: (-?\d+)\.\d+ dBm", section[1])
                self.assertIsNotNone(signal, section[1][:400])
                self.assertEqual(int(self.line(interface)["signal"]), int(signal[1]))

    def test_reports_the_security(self):
        for interface, expected in HOTSPOTS.items():
            with self.subTest(hotspot=interface):
                self.assertEqual(self.line(interface)["security"], expected["security"])

    def test_descriptors_match_exactly_the_right_hotspots(self):
        for interface, expected in HOTSPOTS.items():
            with self.subTest(hotspot=interface):
                self.assertEqual(descriptor_ids(self.line(interface)["matches"]), expected["matches"])

    def test_no_descriptor_matches_anything_else(self):
        ours = set(self.bssids.values())
        for bssid, line in self.latest.items():
            if bssid not in ours:
                self.assertEqual(descriptor_ids(line["matches"]), set(), line)

    def test_interface_appearance_is_logged_once(self):
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd",
                                           MESSAGE_ID="7fa7fa1c453e44d59e150e3d34bb61f1")
        self.assertEqual([entry.get("WIFI_INTERFACE") for entry in entries], ["wlan0"])

    def test_no_bss_is_logged_above_debug(self):
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd")
        loud = [entry.get("MESSAGE", "") for entry in entries if int(entry.get("PRIORITY", "7")) < 7]
        for bssid in self.bssids.values():
            self.assertFalse([message for message in loud if bssid in message.lower()], bssid)
        self.assertFalse([entry for entry in entries if int(entry.get("PRIORITY", "7")) <= 4],
                         "warnings or errors were logged")

    def test_stops_cleanly(self):
        self.assertEqual(self.daemon.stop(), 0, self.daemon.output())
