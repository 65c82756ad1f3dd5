"""accessoryd --probe prints one line per radio, and the lines agree with the kernel."""

import re

from labkit import LabTestCase

BLUETOOTH_LINE = re.compile(
    r"bluetooth (?P<name>hci\d+) address=(?P<address>[0-9A-F]{2}(?::[0-9A-F]{2}){5}) "
    r"up=(?P<up>yes|no) le=(?P<le>yes|no)")
WIFI_LINE = re.compile(
    r"wifi (?P<name>\S+) ifindex=(?P<ifindex>\d+) phy=(?P<phy>\d+) "
    r"address=(?P<address>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})")


class ProbeTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = cls.lab.run([cls.lab.binary("accessoryd"), "--probe"], timeout=60)
        lines = cls.result.stdout.splitlines()
        cls.bluetooth_lines = [line for line in lines if line.startswith("bluetooth ")]
        cls.wifi_lines = [line for line in lines if line.startswith("wifi ")]

    def test_probe_exits_successfully(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)

    def test_radio_lines_have_the_documented_format(self):
        for line in self.bluetooth_lines:
            self.assertRegex(line, f"^{BLUETOOTH_LINE.pattern}$")
        for line in self.wifi_lines:
            self.assertRegex(line, f"^{WIFI_LINE.pattern}$")

    def test_lists_every_bluetooth_controller_once(self):
        kernel = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.assertEqual(len(kernel), self.lab.config.bluetooth_controllers, "lab precondition")
        listed = [BLUETOOTH_LINE.fullmatch(line) for line in self.bluetooth_lines]
        names = [match["name"] for match in listed if match]
        self.assertEqual(sorted(names), sorted(kernel), self.result.stdout)
        for match in filter(None, listed):
            with self.subTest(controller=match["name"]):
                self.assertEqual(match["address"], kernel[match["name"]].address)
                self.assertEqual(match["up"], "yes")  # the lab brings every controller up
                self.assertEqual(match["le"], "yes")  # btvirt -L makes LE-only controllers

    def test_lists_every_wifi_interface_once(self):
        kernel = {i.name: i for i in self.lab.wifi_interfaces()}
        self.assertEqual(len(kernel), self.lab.config.wifi_radios, "lab precondition")
        listed = [WIFI_LINE.fullmatch(line) for line in self.wifi_lines]
        names = [match["name"] for match in listed if match]
        self.assertEqual(sorted(names), sorted(kernel), self.result.stdout)
        for match in filter(None, listed):
            with self.subTest(interface=match["name"]):
                interface = kernel[match["name"]]
                self.assertEqual(int(match["ifindex"]), interface.ifindex)
                self.assertEqual(int(match["phy"]), interface.phy)
                self.assertEqual(match["address"].lower(), interface.address.lower())
