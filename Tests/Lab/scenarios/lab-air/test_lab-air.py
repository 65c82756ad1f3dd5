"""The virtual air carries Wi-Fi between namespaces and LE advertising between controllers.
Needs none of the project's binaries: when this fails, the lab is broken, not accessoryd."""

import signal
import subprocess
import time

from labkit import LabTestCase


class LabAirTests(LabTestCase):
    def test_hotspot_lives_in_its_namespace(self):
        names = [interface.name for interface in self.lab.wifi_interfaces()]
        self.assertEqual(names, ["wlan0"])
        self.assertIn("wlan1", self.lab.run(["ip", "link", "show", "wlan1"], netns="accessory").stdout)

    def test_station_joins_the_hotspot(self):
        station = self.lab.start_wpa_supplicant("wlan0")
        status = station.connect("lab-air", psk="lab-air-passphrase", timeout=60)
        self.assertEqual(status.get("ssid"), "lab-air")
        self.assertEqual(status.get("key_mgmt"), "WPA2-PSK")

    def test_scanner_hears_the_advertiser(self):
        advertiser_address = {c.name: c.address for c in self.lab.bluetooth_controllers()}["hci1"]
        scan = subprocess.Popen(["hcitool", "-i", "hci0", "lescan", "--duplicates"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            for _ in range(5):  # the emulated controller reports on (re)enable only
                time.sleep(1)
                self.lab.readvertise("hci1")
            time.sleep(1)
        finally:
            scan.send_signal(signal.SIGINT)  # hcitool disables scanning on SIGINT
            output, _ = scan.communicate(timeout=20)
        self.assertIn(advertiser_address, output)
        self.assertIn("Lab Air", output)
