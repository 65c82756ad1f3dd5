"""bt-encryption with bluetoothd running: accessoryd must not pair through the management
interface (bluetoothd answers its confirmations and replaces the kernel's key lists), so it pairs
through BlueZ's D-Bus API: its own Agent1, a discovery until bluetoothd knows the accessory,
Device1.Pair. bluetoothd keeps the keys; the app reads the protected characteristic over the
handed-over channel, again after accessoryd restarts (bluetoothd still has the bond), and removing
the accessory removes bluetoothd's bond. The accessory's side (hci1) is bluetoothd's too: with no
default agent bluetoothd would refuse the accessory's confirmation of Just Works, so a bluetoothctl
agent stands in for the accessory's "yes" (lab-peripheral's own management answer would race it).
The emulated controller reports an advertiser once per scan, at once when the scan is enabled,
before the kernel counts its discovery as running, so bluetoothd's discovery would never hear the
accessory; until bluetoothd knows it, the test toggles hci1's advertising, as bt-coexistence does."""

import os
import re
import tempfile
import threading

from labkit import LabTestCase
from labkit.bluez import (AccessoryAgent, device_property, forget_each_other, nudge_until_known, paired,
                          start_bluetoothd)
from labkit.lock import APP, CHARACTERISTIC, SERVICE, VALUE
from labkit.message_ids import ACCESSORY_APPROVED, PAIRING_MODE, SETUP_PAIRING_STARTED
from labkit.peripheral import le_links, serve


class EncryptionBesideBluezTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.gateway_address = controllers["hci0"].address
        self.peer_address = controllers["hci1"].address
        self.bluetoothd = start_bluetoothd(self, [self.gateway_address, self.peer_address])
        forget_each_other(self, self.gateway_address, self.peer_address)
        self.agent = AccessoryAgent(self.lab)
        self.addCleanup(self.agent.close)
        # After bluetoothd: the kernel gives an LE link's ATT channel to the newest listener, and
        # the accessory's GATT server is lab-peripheral's, not bluetoothd's own on hci1.
        self.peripheral = serve(self.lab, "--value", VALUE, "--require-encryption")

    def nudging_until_known(self, app):
        """nudge_until_known in a thread of its own, while the app's setup runs."""
        thread = threading.Thread(target=nudge_until_known, daemon=True,
                                  args=(self.lab, self.peer_address, lambda: app.poll() is None))
        thread.start()
        return thread

    def start_accessoryd(self, apps, state):
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        return daemon

    def read_as_app(self, *arguments):
        app = self.lab.example_app(*arguments, "--read", f"{SERVICE}/{CHARACTERISTIC}")
        try:
            output, _ = app.communicate(timeout=120)
        finally:
            app.kill()
        self.lab.log(output)
        self.assertEqual(app.returncode, 0, output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        return output

    def test_setup_pairs_through_bluez_reads_again_after_a_restart_and_removal_removes_the_bond(self):
        apps = self.lab.write_app_manifests({"lock-app": APP})
        state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        daemon = self.start_accessoryd(apps, state)
        try:
            mode = self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE)
            self.assertEqual(mode.get("PAIRING_MODE"), "bluez", mode)
            app = self.lab.example_app("--bluetooth-service", SERVICE, "--name-substring", "Lab Sensor", "--pairing",
                                       "--read", f"{SERVICE}/{CHARACTERISTIC}")
            try:
                found = {}

                def listed():
                    text = self.lab.accessoryctl("requests")
                    match = re.search(r"^request (\d+):", text, re.M)
                    if match and self.peer_address in text:
                        found["request"] = match.group(1)
                        return True
                    return False

                self.lab.wait_until(listed, timeout=60, what="the lock as a candidate")
                self.lab.accessoryctl("approve", found["request"], "1")
                nudging = self.nudging_until_known(app)
                output, _ = app.communicate(timeout=150)
                nudging.join(timeout=30)
            finally:
                app.kill()
            self.lab.log(output)
            self.assertEqual(app.returncode, 0, output)
            kinds = [re.sub(r"^event: (\w+).*", r"\1", line) for line in output.splitlines() if line.startswith("event: ")]
            self.assertEqual([k for k in kinds if k in ("pickerSetupPairing", "accessoryAdded", "pickerDidDismiss")],
                             ["pickerSetupPairing", "accessoryAdded", "pickerDidDismiss"], output)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
            self.lab.wait_for_journal(MESSAGE_ID=SETUP_PAIRING_STARTED, APP="lock-app")
            approved = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="lock-app")
            self.assertEqual(approved.get("IDENTITY"), f"{self.peer_address}/public")
            # bluetoothd keeps the bond; accessoryd's store only says so.
            self.assertEqual(device_property(self.lab, self.peer_address, "Paired"), "b true", "bluetoothd lists it as paired")
            with open(os.path.join(state, "bonds")) as handle:
                store = handle.read()
            self.assertIn("KeptBy=bluetoothd", store)
            self.assertNotIn("LongTermKey=", store)
            self.assertEqual(self.agent.answered, 1, self.agent.text())
        finally:
            daemon.stop()

        # Again, from bluetoothd's bond: no pairing, and the read succeeds, on a fresh link.
        self.lab.wait_until(lambda: not le_links(self.lab, "hci0"), timeout=30,
                            what="the first channel's LE link to go down")
        daemon = self.start_accessoryd(apps, state)
        try:
            self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE, PAIRING_MODE="bluez", count=2)
            self.read_as_app()
            self.assertEqual(self.agent.answered, 1, "no second pairing: " + self.agent.text())

            # The administrator removes the accessory: bluetoothd's bond goes with it.
            listing = self.lab.accessoryctl("accessories")
            accessory = re.search(r"^([0-9a-f]{16})\s+lock-app", listing, re.M)
            self.assertIsNotNone(accessory, listing)
            self.lab.accessoryctl("remove", accessory.group(1))
            self.lab.wait_until(lambda: device_property(self.lab, self.peer_address, "Paired") is None, timeout=30,
                                what="bluetoothd to forget the accessory")
            self.assertNotIn(self.peer_address, paired(self.lab))
            with open(os.path.join(state, "bonds")) as handle:
                self.assertNotIn("KeptBy=bluetoothd", handle.read())
        finally:
            daemon.stop()
