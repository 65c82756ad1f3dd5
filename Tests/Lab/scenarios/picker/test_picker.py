"""Setup requests answered in the lab, against the real radios: an app (the example app,
as the unprivileged `nobody`) asks for a Bluetooth LE sensor and a Wi-Fi camera; the
administrator approves the first with accessoryctl, an approval window approves the
second; the README's busctl walk-through runs as written; the journal says who approved
what, under MESSAGE_IDs."""

import os
import re

from labkit import LabTestCase
from labkit.message_ids import (ACCESSORY_APPROVED, ACCESSORY_REMOVED, APPROVAL_WINDOW_OPENED,
                                SETUP_REQUESTED)

CONFIG = """\
[Daemon]
LogLevel=debug

[Wi-Fi]
ScanInterval=2
Frequencies=2437
"""

APP = """\
[App]
Name=acme-sensor-logger
User=nobody
Supports=Bluetooth Wi-Fi

[Bluetooth]
ServiceUUIDs=180F
Names=Acme

[Wi-Fi]
SSIDPrefixes=ACME-
"""

# The README's walk-through runs as root, with a manifest of its own.
SHELL_APP = APP.replace("acme-sensor-logger", "gateway-shell").replace("User=nobody", "User=root")


class PickerTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        apps = lab.write_app_manifests({"acme-sensor-logger": APP, "gateway-shell": SHELL_APP})
        lab.run(["ip", "link", "set", "wlan0", "up"]).check()
        config = lab.write_file("accessoryd.conf", CONFIG)
        # As systemd's StateDirectory= would: grants go to the scenario's scratch.
        state = os.path.join(lab.scratch_dir, "state")
        cls.daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                       "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        cls.daemon.wait_ready(timeout=90)
        cls.sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == "hci1")

    def ctl(self, *arguments):
        return self.lab.accessoryctl(*arguments)

    def busctl(self, *arguments, check=True):
        result = self.lab.run(["busctl", "call", "org.accessoryagent", *arguments], timeout=30)
        if check:
            self.assertEqual(result.returncode, 0, f"busctl {' '.join(arguments)}: {result.stderr}")
        return result

    def wait_for_candidate(self, what):
        """The number of the pending request once accessoryctl lists a candidate for it."""
        found = {}

        def listed():
            text = self.ctl("requests")
            match = re.search(r"^request (\d+):", text, re.M)
            if match and what in text:
                found["request"] = match.group(1)
                found["text"] = text
                return True
            # Advertisements come every 100 ms; a fresh report only after a readvertise.
            self.lab.readvertise()
            return False

        self.lab.wait_until(listed, timeout=90, what=f"a candidate {what} in `accessoryctl requests`")
        self.lab.log(found["text"])
        return found["request"], found["text"]

    def test_a_the_readme_walkthrough_by_hand(self):
        opened = self.busctl("/org/accessoryagent", "org.accessoryagent.Manager1", "OpenPersistentSession")
        session = re.search(r'"(/org/accessoryagent/session/\d+)"', opened.stdout).group(1)
        self.assertEqual(self.busctl(session, "org.accessoryagent.Session1", "Activate").stdout, "ao 0\n")
        refused = self.busctl(session, "org.accessoryagent.Session1", "ShowPicker", "a(ssa{ss}asas)a{ss}", "1",
                              "Acme sensor", "", "2", "ServiceUUID", "FEAA", "NameSubstring", "Acme", "0", "0", "0",
                              check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("not declared in the app's manifest: service UUID FEAA", refused.stderr)
        self.busctl(session, "org.accessoryagent.Session1", "ShowPicker", "a(ssa{ss}asas)a{ss}", "1",
                    "Acme sensor", "", "2", "ServiceUUID", "180F", "NameSubstring", "Acme", "0", "0", "1",
                    "DiscoveryTimeout", "long")
        request, listing = self.wait_for_candidate(self.sensor)
        # As the README shows it.
        self.assertRegex(listing, rf"request {request}: gateway-shell asks for \"Acme sensor\"\n"
                                  rf"  discovery ends in [0-9]+ s\n"
                                  rf"  CANDIDATE +ITEM +DEVICE +KIND +ADDRESS/SSID +RSSI\n"
                                  rf"  1 +Acme sensor +Acme 2F1 +bluetooth +{self.sensor}/public +none\n")
        approved = self.ctl("approve", request, "1")
        accessory = re.search(r"(/org/accessoryagent/accessory/[0-9a-f]{16})", approved).group(1)
        events = self.busctl(session, "org.accessoryagent.Session1", "TakeEvents").stdout
        self.lab.log(events)
        self.assertRegex(events, r'"accessoryAdded" 1 "Accessory" "' + accessory + r'" "pickerDidDismiss" 0\n$')
        name = self.lab.run(["busctl", "get-property", "org.accessoryagent", accessory,
                             "org.accessoryagent.Accessory1", "DisplayName"]).check().stdout
        self.assertEqual(name, 's "Acme 2F1"\n')
        entry = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="gateway-shell")
        self.assertEqual(entry.get("DECIDED_BY"), "administrator root (uid 0)")
        self.assertEqual(entry.get("IDENTITY"), f"{self.sensor}/public")
        # Given back, so the example app may have it next.
        self.ctl("remove", accessory.rsplit("/", 1)[1])
        removed = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_REMOVED, APP="gateway-shell")
        self.assertEqual(removed.get("DECIDED_BY"), "administrator root (uid 0)")
        self.busctl(session, "org.accessoryagent.Session1", "Invalidate")

    def test_b_the_example_app_gets_the_sensor_approved_with_accessoryctl(self):
        app = self.lab.example_app("--bluetooth-service", "180F", "--name-substring", "Acme")
        try:
            request, listing = self.wait_for_candidate(self.sensor)
            self.assertIn("acme-sensor-logger", listing)
            self.ctl("approve", request, "1")
            output, _ = app.communicate(timeout=60)
        finally:
            app.kill()
        self.lab.log(output)
        self.assertEqual(app.returncode, 0, output)
        self.assertIn("picked:", output)
        self.assertIn("Acme 2F1", output)
        entry = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="acme-sensor-logger")
        self.assertEqual(entry.get("DECIDED_BY"), "administrator root (uid 0)")
        self.assertEqual(entry.get("IDENTITY"), f"{self.sensor}/public")
        self.assertTrue(self.lab.journal_entries(MESSAGE_ID=SETUP_REQUESTED, APP="acme-sensor-logger"))

    def test_c_an_approval_window_approves_the_camera(self):
        self.ctl("allow", "--app", "acme-sensor-logger", "--for", "5m")
        opened = self.lab.wait_for_journal(MESSAGE_ID=APPROVAL_WINDOW_OPENED, APP="acme-sensor-logger")
        self.assertEqual(opened.get("DECIDED_BY"), "administrator root (uid 0)")
        app = self.lab.example_app("--wifi-ssid-prefix", "ACME-")
        try:
            output, _ = app.communicate(timeout=120)
        finally:
            app.kill()
        self.lab.log(output)
        self.assertEqual(app.returncode, 0, output)
        self.assertIn("ACME-Cam-7F", output)
        entries = [e for e in self.lab.journal_entries(MESSAGE_ID=ACCESSORY_APPROVED, APP="acme-sensor-logger")
                   if e.get("IDENTITY") == "ACME-Cam-7F"]
        self.assertEqual(len(entries), 1)
        self.assertEqual(entries[0].get("DECIDED_BY"), "policy (approval window)")
        self.ctl("disallow", "--app", "acme-sensor-logger")
        # What the administrator sees now: both, for the one app.
        listing = self.ctl("accessories")
        self.lab.log(listing)
        self.assertIn("ACME-Cam-7F", listing)
        self.assertIn(self.sensor, listing)
        self.lab.log(self.lab.journal_text(SYSLOG_IDENTIFIER="accessoryd"))
