"""An accessory that protects its characteristic (a lock, a medical sensor): lab-peripheral with
--require-encryption answers a read over an unencrypted link with ATT Insufficient Authentication,
which is what an app gets from such an accessory without pairing. With bluetoothPairingLE in the
app's descriptor, accessoryd (no bluetoothd here) pairs it during setup through the kernel's
management interface (Just Works: the administrator's approval is the consent, and
lab-peripheral --accept-pairing confirms the accessory's side), and the
app's read over the handed-over channel succeeds; after a restart accessoryd loads the bond
and a new channel reads again; removing the accessory removes its key from the store and the
kernel (its list in debugfs). The controllers are powered through the management interface
first: the kernel registers its Security Manager for a controller only when powered that way (a
controller brought up with HCIDEVUP alone answers every request for security with "security
requested but not available")."""

import os
import re
import tempfile

from labkit import LabTestCase
from labkit.lock import APP, CHARACTERISTIC, SERVICE, VALUE
from labkit.message_ids import ACCESSORY_APPROVED, PAIRING_MODE, SETUP_PAIRING_STARTED
from labkit.peripheral import le_links, serve


def kernel_long_term_keys(lab, controller):
    """The LTKs the kernel holds for `controller`, from debugfs: one line per key, its peer's address
    first (upper-cased, as the lab writes addresses)."""
    lab.run(["sh", "-c", "mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug"]).check()
    with open(f"/sys/kernel/debug/bluetooth/{controller}/long_term_keys") as handle:
        return handle.read().upper()


def le_links(lab, controller):
    """The LE links `controller` has now, as hcitool lists them."""
    listing = lab.run(["hcitool", "-i", controller, "con"], timeout=10).stdout
    return [line for line in listing.splitlines() if " LE " in line]


class EncryptionTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.peer_address = controllers["hci1"].address
        # hci0 powered as accessoryd's ControllerPower would, and left not bondable: accessoryd
        # makes it bondable when it pairs (without that no key would be distributed). hci1's
        # side: lab-peripheral --accept-pairing prepares its controller itself.
        for setting in (["power", "off"], ["bondable", "off"], ["power", "on"]):
            self.lab.run(["btmgmt", "--index", "0", *setting], timeout=20).check()
        self.bond_file = os.path.join(self.lab.scratch_dir, "peripheral-bonds")
        if os.path.exists(self.bond_file):
            os.remove(self.bond_file)
        self.start_peripheral()

    def start_peripheral(self):
        self.peripheral = serve(self.lab, "--value", VALUE, "--require-encryption", "--accept-pairing",
                                "--bond-file", self.bond_file)

    def tearDown(self):
        self.peripheral.stop()

    def read(self):
        return self.lab.run([self.lab.binary("lab-peripheral"), "central", "--controller", "hci0",
                             "--address", self.peer_address + "/public"], timeout=60)

    def test_a_without_a_bond_the_read_is_refused_by_the_accessory(self):
        result = self.read()
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("read failed: ", result.stdout)
        self.assertIn("Insufficient Authentication", result.stdout)
        self.assertNotIn(VALUE, result.stdout)

    # accessoryd pairs during setup ----------------------------------------------------------

    def start_accessoryd(self, apps, state):
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        return daemon

    def test_b_setup_pairs_and_the_app_reads_then_after_a_restart_again(self):
        apps = self.lab.write_app_manifests({"lock-app": APP})
        state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        daemon = self.start_accessoryd(apps, state)
        try:
            mode = self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE)
            self.assertEqual(mode.get("PAIRING_MODE"), "mgmt", mode)
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
                # Just Works: the approval is the consent, nobody is asked again.
                self.lab.accessoryctl("approve", found["request"], "1")
                output, _ = app.communicate(timeout=90)
            finally:
                app.kill()
            self.lab.log(output)
            self.assertEqual(app.returncode, 0, output)
            events = [line for line in output.splitlines() if line.startswith("event: ")]
            kinds = [re.sub(r"^event: (\w+).*", r"\1", line) for line in events]
            # The documented order: pairing announced, then the accessory, then the dismissal.
            self.assertEqual([k for k in kinds if k in ("pickerSetupPairing", "accessoryAdded", "pickerDidDismiss")],
                             ["pickerSetupPairing", "accessoryAdded", "pickerDidDismiss"], output)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
            self.assertIn("pairing confirmed for", self.peripheral.output())
            self.assertIn("no pairing questions", self.lab.accessoryctl("pairing-questions"))
            self.lab.wait_for_journal(MESSAGE_ID=SETUP_PAIRING_STARTED, APP="lock-app")
            approved = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="lock-app")
            self.assertEqual(approved.get("IDENTITY"), f"{self.peer_address}/public")
            self.assertTrue(os.path.exists(os.path.join(state, "bonds")), os.listdir(state))
            self.assertEqual(os.stat(os.path.join(state, "bonds")).st_mode & 0o777, 0o600)
        finally:
            daemon.stop()

        # Again, from the bond loaded at the start: no pairing, and the read succeeds. On a fresh
        # link: the kernel keeps the last one up a while, and a channel on a link going down ends.
        self.lab.wait_until(lambda: not le_links(self.lab, "hci0"), timeout=30,
                            what="the first channel's LE link to go down")
        # The accessory restarts too, its side's key from its bond file (as from a real one's flash).
        self.assertIn("key kept in", self.peripheral.output())
        self.peripheral.stop()
        self.start_peripheral()
        self.assertIn("loaded 1 key(s)", self.peripheral.output())
        daemon = self.start_accessoryd(apps, state)
        try:
            self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE, count=2)
            app = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}")
            try:
                output, _ = app.communicate(timeout=90)
            finally:
                app.kill()
            self.lab.log(output)
            self.assertEqual(app.returncode, 0, output)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
            self.assertNotIn("pairing confirmed for", self.peripheral.output())

            # The administrator removes the accessory: its bond goes from the store and the kernel.
            self.assertIn(self.peer_address, kernel_long_term_keys(self.lab, "hci0"))
            listing = self.lab.accessoryctl("accessories")
            accessory = re.search(r"^([0-9a-f]{16})\s+lock-app", listing, re.M)
            self.assertIsNotNone(accessory, listing)
            self.lab.accessoryctl("remove", accessory.group(1))
            self.lab.wait_until(lambda: self.peer_address not in kernel_long_term_keys(self.lab, "hci0"), timeout=30,
                                what="the kernel to forget the accessory's key")
            with open(os.path.join(state, "bonds")) as handle:
                self.assertNotIn(self.peer_address, handle.read())
        finally:
            daemon.stop()
