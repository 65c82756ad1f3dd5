"""Pairing an accessory that uses privacy beside bluetoothd, with passkey entry answered through
accessoryctl. The sensor (lab-peripheral --irk on hci1, its controller DisplayOnly) advertises from
a resolvable private address, answers a read only over an encrypted link and shows a passkey when
it pairs. bluetoothd runs and manages both controllers, so accessoryd pairs through BlueZ's D-Bus
API: Device1.Pair at the private address it heard, and bluetoothd asks accessoryd's Agent1 for the
passkey, which the administrator enters with `accessoryctl answer-pairing`. bluetoothd keeps the
bond and its IRK; accessoryd hears the identity on the management socket and grants the sensor
under it. Then the sensor rotates its address every 3 s: the app follows it under the identity
address across at least three rotations, and a new channel reaches it (the kernel resolves its
address with the IRK bluetoothd loaded). Removing the accessory removes bluetoothd's bond. A
wrong passkey, the sensor refusing to pair and the sensor gone mid-pairing each end the setup with
a named reason, nothing granted, and no bond left in bluetoothd or accessoryd's store.

The sensor's controller is bluetoothd's too, so its display is a bluetoothctl agent, DisplayOnly
and registered first: it stays bluetoothd's default agent (BlueZ makes the first agent registered
the default, and the default agent's capability is every controller's), and a DisplayOnly
responder is only told the passkey, never asked, so nothing races lab-peripheral's side."""

import os
import re
import tempfile
import time

from labkit import LabTestCase, LabTimeout
from labkit.bluetooth import peripheral_command
from labkit.bluez import AccessoryAgent, forget_each_other, paired, start_bluetoothd
from labkit.lock import APP, CHARACTERISTIC, SERVICE, VALUE
from labkit.message_ids import ACCESSORY_APPROVED, PAIRING_MODE
from labkit.peripheral import serve
from labkit.rotation import IRK, RotationReader

ROTATE_SECONDS = 3
ROTATIONS = 3


class PrivacyPairingBesideBluezTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.gateway = controllers["hci0"].address
        self.sensor = controllers["hci1"].address
        start_bluetoothd(self, [self.gateway, self.sensor])
        forget_each_other(self, self.gateway, self.sensor)
        # The sensor's display: DisplayOnly, so it shows a passkey and the gateway's side enters it.
        self.display = AccessoryAgent(self.lab, capability="DisplayOnly")
        self.addCleanup(self.display.close)
        self.control = os.path.join(self.lab.scratch_dir, "sensor.control")
        self.bond_file = os.path.join(self.lab.scratch_dir, "peripheral-bonds")
        self.peripheral = None
        self.addCleanup(lambda: self.peripheral and self.peripheral.stop())

    def start_peripheral(self, *extra):
        """lab-peripheral after bluetoothd: the kernel gives an LE link's ATT channel to the newest listener."""
        if self.peripheral:
            self.peripheral.stop()
        self.peripheral = serve(self.lab, "--value", VALUE, "--irk", IRK, *extra, "--control", self.control,
                                "--require-encryption", "--accept-pairing", "--bond-file", self.bond_file)
        # btvirt reports an advertiser when its advertising is enabled: re-enabled every 500 ms, the
        # sensor is heard by accessoryd's scan and by bluetoothd's discovery alike.
        self.air("beacon 500")

    def air(self, command):
        return peripheral_command(self.control, command)

    def finish(self, app, timeout=150):
        try:
            output, _ = app.communicate(timeout=timeout)
        finally:
            app.kill()
        self.lab.log(output)
        return output

    def approve(self, held):
        """The sensor at `held` approved by the administrator; the request's number."""
        found = {}

        def listed():
            text = self.lab.accessoryctl("requests")
            request = re.search(r"^request (\d+):", text, re.M)
            candidate = re.search(rf"^\s+(\d+)\s.*{held}/random", text, re.M)
            if request and candidate:
                found.update(request=request.group(1), candidate=candidate.group(1))
                return True
            return False

        self.lab.wait_until(listed, timeout=60, what=f"the sensor at {held} as a candidate")
        self.lab.accessoryctl("approve", found["request"], found["candidate"])
        return found["request"]

    def wait_for_the_passkey_question(self, request):
        """Until accessoryctl lists the passkey entry of `request` and the sensor shows its passkey; the passkey."""
        found = {}

        def asked():
            listing = self.lab.accessoryctl("pairing-questions")
            shown = re.search(r"passkey (\d{6}) for", self.peripheral.output())
            question = re.search(rf"^{request}\s+\d+\s+passkey-entry\s", listing, re.M)
            if shown and question:
                found["passkey"] = shown.group(1)
                return True
            return False

        # bluetoothd's discovery first has to hear the sensor, then its Pair asks accessoryd's agent.
        try:
            self.lab.wait_until(asked, timeout=90, what="the passkey entry question and the sensor's passkey")
        except LabTimeout as timeout:
            # Which never came, for a failure seen only in a log's tail.
            shown = re.findall(r"passkey (\d{6}) for", self.peripheral.output())
            raise LabTimeout(f"{timeout}: accessoryctl pairing-questions {self.lab.accessoryctl('pairing-questions')!r}; "
                             f"the sensor showed {shown}; its display agent {self.display.passkeys()}") from None
        # The kernel tells bluetoothd the same passkey for the sensor's side, which shows it on the
        # display agent: a one-way notice that nothing in the pairing waits on, so only logged.
        self.lab.log(f"passkey {found['passkey']}; the display agent showed {self.display.passkeys()}")
        return found["passkey"]

    def approve_and_answer_the_passkey(self, held, wrong=False):
        """The sensor at `held` approved, then the passkey it shows entered (or, `wrong`, another one)."""
        request = self.approve(held)
        passkey = self.wait_for_the_passkey_question(request)
        if wrong:
            passkey = f"{(int(passkey) + 1) % 1000000:06d}"
        self.lab.accessoryctl("answer-pairing", request, "--passkey", passkey)

    def setup_app(self):
        """The app's setup with bluetoothPairingLE, in the background."""
        return self.lab.example_app("--bluetooth-service", SERVICE, "--name-substring", "Lab Sensor", "--pairing",
                                    "--read", f"{SERVICE}/{CHARACTERISTIC}")

    def start(self, *peripheral):
        """The sensor holding one private address, and accessoryd pairing beside bluetoothd: the
        address and accessoryd's state directory."""
        self.start_peripheral(*peripheral)
        held = re.search(r"holding ([0-9A-F:]{17})/random", self.air("hold")).group(1)
        self.assertEqual(int(held[0], 16) >> 2, 0b01, f"{held} is not a resolvable private address")
        apps = self.lab.write_app_manifests({"lock-app": APP})
        state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        self.addCleanup(daemon.stop)
        daemon.wait_ready(timeout=90)
        mode = self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE)
        self.assertEqual(mode.get("PAIRING_MODE"), "bluez", mode)
        return held, state

    def set_up_with_passkey(self, held, wrong=False):
        """The app's setup with bluetoothPairingLE, approved and its passkey answered; the app's output."""
        app = self.setup_app()
        try:
            self.approve_and_answer_the_passkey(held, wrong)
        except BaseException:
            app.kill()
            raise
        return app, self.finish(app)

    def assert_failed_and_nothing_kept(self, app, output, reason, held, state):
        self.assertNotEqual(app.returncode, 0, output)
        self.assertIn(f"pairing Lab Sensor failed ({reason})", output)
        self.assertIn("pickerSetupFailed", output)
        self.assertNotIn("accessoryAdded", output)
        self.assertIn("no accessories", self.lab.accessoryctl("accessories"))
        self.assertFalse(os.path.exists(os.path.join(state, "bonds")), os.listdir(state))
        # What bluetoothd's Pair left is removed with the setup.
        self.lab.wait_until(lambda: held not in self.lab.run(["bluetoothctl", "devices"]).stdout, timeout=30,
                            what="bluetoothd to forget the sensor's device")
        self.assertNotIn(self.sensor, paired(self.lab))

    def test_a_a_wrong_passkey_fails_by_name_and_leaves_no_bond(self):
        held, state = self.start()
        app, output = self.set_up_with_passkey(held, wrong=True)
        self.assert_failed_and_nothing_kept(app, output, "wrongPasskey", held, state)

    def test_a_b_the_accessory_refusing_fails_by_name_and_leaves_no_bond(self):
        # Not bondable: the sensor's kernel answers a bonding Pairing Request with Pairing Not Supported,
        # which reaches bluetoothd as Authentication Failed, and Pair's caller as AuthenticationFailed.
        held, state = self.start("--not-bondable")
        app = self.setup_app()
        try:
            self.approve(held)
        except BaseException:
            app.kill()
            raise
        output = self.finish(app)
        self.assert_failed_and_nothing_kept(app, output, "authenticationFailed", held, state)

    def test_a_c_the_accessory_gone_mid_pairing_fails_by_name_and_leaves_no_bond(self):
        held, state = self.start()
        app = self.setup_app()
        try:
            self.wait_for_the_passkey_question(self.approve(held))
            # The sensor vanishes while its passkey is on show: its controller powered off drops the link.
            self.lab.run(["btmgmt", "--index", "1", "power", "off"], timeout=20).check()
        except BaseException:
            app.kill()
            raise
        output = self.finish(app)
        self.assert_failed_and_nothing_kept(app, output, "accessoryGone", held, state)

    def test_b_passkey_entry_through_bluez_then_the_grant_follows_the_rotations_and_removal_unpairs(self):
        held, state = self.start()
        app, output = self.set_up_with_passkey(held)
        self.assertEqual(app.returncode, 0, output)
        kinds = re.findall(r"^event: (\w+)", output, re.M)
        self.assertEqual([k for k in kinds if k in ("pickerSetupPairing", "accessoryAdded", "pickerDidDismiss")],
                         ["pickerSetupPairing", "accessoryAdded", "pickerDidDismiss"], output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        # Granted under the identity address the pairing gave, not the private one it was heard at.
        approved = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="lock-app")
        self.assertEqual(approved.get("IDENTITY"), f"{self.sensor}/public", approved)
        self.assertEqual(len(self.lab.journal_entries(MESSAGE_ID=ACCESSORY_APPROVED)), 1, "only this setup's grant")
        accessory = approved.get("ACCESSORY_ID")
        # bluetoothd keeps the bond (and lists it under the identity); accessoryd's store says so, with the IRK.
        self.assertIn(self.sensor, paired(self.lab))
        with open(os.path.join(state, "bonds")) as handle:
            store = handle.read()
        self.assertIn("KeptBy=bluetoothd", store)
        self.assertIn(f"IdentityResolvingKey={IRK}", store)
        self.assertNotIn("LongTermKey=", store)

        # The sensor restarts (its side's key from its bond file) and rotates its address from now on.
        self.start_peripheral("--rotate-seconds", str(ROTATE_SECONDS))
        follower = self.lab.example_app("--follow", "120")
        reader = RotationReader(self, follower)
        try:
            reader.until(lambda seen: len(set(seen)) > ROTATIONS,
                         time.monotonic() + ROTATE_SECONDS * (ROTATIONS + 1) + 40)
        finally:
            follower.kill()
            follower.wait(timeout=30)
        text = reader.text()
        self.assertIn(f"bluetooth={self.sensor}/public", text)
        self.assertNotIn(f"presence: {accessory} absent", text)
        self.assertTrue(all(l.startswith(f"advertisement: {accessory} ") for l in reader.lines
                            if l.startswith("advertisement:")), text)
        addresses = set(re.findall(r"address ([0-9A-F:]{17})/random", self.peripheral.output()))
        self.assertGreaterEqual(len(addresses), ROTATIONS + 1, self.peripheral.output())

        # A new channel, to whichever address it has now, encrypted with bluetoothd's bond.
        self.air("hold")
        reader = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}")
        output = self.finish(reader, timeout=90)
        self.assertEqual(reader.returncode, 0, output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        self.assertNotIn("passkey", self.peripheral.output(), "no second pairing")

        # The administrator removes the accessory: bluetoothd's bond goes with it.
        self.lab.accessoryctl("remove", accessory)
        self.lab.wait_until(lambda: self.sensor not in paired(self.lab), timeout=30,
                            what="bluetoothd to forget the sensor")
        with open(os.path.join(state, "bonds")) as handle:
            self.assertNotIn("KeptBy=bluetoothd", handle.read())
