"""Passkey entry during setup, answered by the administrator through accessoryctl, and the ways
it fails. lab-peripheral's controller (hci1) declares DisplayOnly, so when accessoryd pairs from
hci0 offering KeyboardDisplay (an administrator approved: someone can be asked) the kernel makes
up a passkey for the accessory to show (lab-peripheral prints it) and asks accessoryd's side to
enter it (mgmt User Passkey Request), which accessoryd lists for `accessoryctl pairing-questions`.
Each test starts accessoryd on an empty state directory; after a failure nothing is granted and
no bond is stored."""

import os
import re
import subprocess
import tempfile

from labkit import LabTestCase
from labkit.helper import AS_NOBODY
from labkit.lock import APP, CHARACTERISTIC, SERVICE, VALUE
from labkit.peripheral import serve


class PairingTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.peer_address = controllers["hci1"].address
        # hci0 powered through mgmt, so that the kernel's Security Manager serves it (see bt-encryption);
        # lab-peripheral --accept-pairing prepares hci1 itself.
        for setting in (["power", "off"], ["power", "on"]):
            self.lab.run(["btmgmt", "--index", "0", *setting], timeout=20).check()
        # DisplayOnly: the accessory shows a passkey, the gateway's side enters it.
        self.lab.run(["btmgmt", "--index", "1", "io-cap", "0"], timeout=20).check()
        self.peripheral = None
        self.daemon = None

    def tearDown(self):
        if self.daemon:
            self.daemon.stop()
        if self.peripheral:
            self.peripheral.stop()

    def start_peripheral(self, *extra):
        self.peripheral = serve(self.lab, "--value", VALUE, "--require-encryption", "--accept-pairing", *extra)

    def start_accessoryd(self):
        apps = self.lab.write_app_manifests({"lock-app": APP})
        self.state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        self.daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                             "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": self.state})
        self.daemon.wait_ready(timeout=90)

    def set_up_and_approve(self):
        """The app's picker with bluetoothPairingLE; the lock approved by the administrator. The app and the request."""
        self.lab.log("$ (as nobody) accessory-example --pairing --read ...")
        app = subprocess.Popen(
            AS_NOBODY + [self.lab.binary("accessory-example"), "--bluetooth-service", SERVICE, "--name-substring",
                         "Lab Sensor", "--pairing", "--read", f"{SERVICE}/{CHARACTERISTIC}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        found = {}

        def listed():
            text = self.lab.accessoryctl("requests")
            match = re.search(r"^request (\d+):", text, re.M)
            if match and self.peer_address in text:
                found["request"] = match.group(1)
                return True
            return False

        try:
            self.lab.wait_until(listed, timeout=60, what="the lock as a candidate")
            self.lab.accessoryctl("approve", found["request"], "1")
        except BaseException:
            app.kill()
            raise
        return app, found["request"]

    def wait_for_question(self, request):
        """Until accessoryctl lists the passkey entry of `request`, and lab-peripheral shows its passkey."""
        shown = {}

        def asked():
            listing = self.lab.accessoryctl("pairing-questions")
            match = re.search(r"passkey (\d{6}) for", self.peripheral.output())
            if match and re.search(rf"^{request}\s+\d+\s+passkey-entry\s", listing, re.M):
                shown["passkey"] = match.group(1)
                return True
            return False

        self.lab.wait_until(asked, timeout=60, what="the passkey entry question and the accessory's passkey")
        return shown["passkey"]

    def finish(self, app):
        try:
            output, _ = app.communicate(timeout=120)
        finally:
            app.kill()
        self.lab.log(output)
        return output

    def assert_nothing_kept(self, output, reasons):
        self.assertNotEqual(self.app_status, 0, output)
        named = re.search(r"pairing Lab Sensor failed \((\w+)\)", output)
        self.assertTrue(named, output)
        self.lab.log(f"PickerSetupFailed named: {named.group(1)}")
        self.assertIn(named.group(1), reasons, output)
        self.assertIn("pickerSetupFailed", output)
        self.assertNotIn("accessoryAdded", output)
        self.assertIn("no accessories", self.lab.accessoryctl("accessories"))
        self.assertFalse(os.path.exists(os.path.join(self.state, "bonds")), os.listdir(self.state))

    def test_a_passkey_entry_answered_with_accessoryctl_then_the_read(self):
        self.start_peripheral()
        self.start_accessoryd()
        app, request = self.set_up_and_approve()
        passkey = self.wait_for_question(request)
        self.lab.accessoryctl("answer-pairing", request, "--passkey", passkey)
        output = self.finish(app)
        self.assertEqual(app.returncode, 0, output)
        kinds = re.findall(r"^event: (\w+)", output, re.M)
        self.assertEqual([k for k in kinds if k in ("pickerSetupPairing", "accessoryAdded", "pickerDidDismiss")],
                         ["pickerSetupPairing", "accessoryAdded", "pickerDidDismiss"], output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        self.assertEqual(os.stat(os.path.join(self.state, "bonds")).st_mode & 0o777, 0o600)

    def test_b_a_wrong_passkey_fails_by_name_and_keeps_nothing(self):
        self.start_peripheral()
        self.start_accessoryd()
        app, request = self.set_up_and_approve()
        passkey = self.wait_for_question(request)
        wrong = f"{(int(passkey) + 1) % 1000000:06d}"
        self.lab.accessoryctl("answer-pairing", request, "--passkey", wrong)
        output = self.finish(app)
        self.app_status = app.returncode
        self.assert_nothing_kept(output, ["wrongPasskey"])

    def test_c_the_accessory_refusing_to_pair_fails_by_name_and_keeps_nothing(self):
        # Not bondable: the accessory's kernel answers a bonding Pairing Request with Pairing Not Supported.
        self.start_peripheral("--not-bondable")
        self.start_accessoryd()
        app, _ = self.set_up_and_approve()
        output = self.finish(app)
        self.app_status = app.returncode
        # The accessory's SMP Pairing Failed (Pairing Not Supported) reaches mgmt as Pair Device's
        # status Authentication Failed (0x05), as btmon shows: the kernel does not pass the reason on.
        self.assert_nothing_kept(output, ["authenticationFailed"])

    def test_d_the_accessory_gone_mid_pairing_fails_by_name_and_keeps_nothing(self):
        self.start_peripheral()
        self.start_accessoryd()
        app, request = self.set_up_and_approve()
        self.wait_for_question(request)
        # The accessory vanishes while its passkey is on show: its controller powered off drops the link.
        self.lab.run(["btmgmt", "--index", "1", "power", "off"], timeout=20).check()
        output = self.finish(app)
        self.app_status = app.returncode
        # mgmt's Device Disconnected comes before Pair Device's answer (status Failed): accessoryGone.
        self.assert_nothing_kept(output, ["accessoryGone"])
