"""Pairing an accessory that uses privacy: no bond before the start. The sensor advertises from a
resolvable private address (lab-peripheral --irk, its kernel set to distribute that IRK with its
public address as identity: Set Privacy), answers a read only over an encrypted link and accepts
Just Works pairing. The app asks for it with bluetoothPairingLE; accessoryd pairs it through the
kernel's management interface (no bluetoothd) at the private address it heard, learns its IRK and
identity address from the pairing, and grants it under the identity address. Then the sensor
restarts (its side's key from its bond file) and rotates its address every 3 s: the app follows it
under the identity address across at least three rotations, with no absence, and reads it again
over a new channel."""

import os
import re
import tempfile
import time

from labkit import LabTestCase
from labkit.bluetooth import peripheral_command
from labkit.lock import APP, CHARACTERISTIC, SERVICE, VALUE
from labkit.message_ids import ACCESSORY_APPROVED, PAIRING_MODE
from labkit.peripheral import serve
from labkit.rotation import IRK, RotationReader

ROTATE_SECONDS = 3
ROTATIONS = 3


class PrivacyPairingTests(LabTestCase):
    def setUp(self):
        self.sensor = next(c.address for c in self.lab.bluetooth_controllers() if c.name == "hci1")
        # hci0 as accessoryd's ControllerPower leaves it (powered through mgmt, not bondable).
        for setting in (["power", "off"], ["bondable", "off"], ["power", "on"]):
            self.lab.run(["btmgmt", "--index", "0", *setting], timeout=20).check()
        self.control = os.path.join(self.lab.scratch_dir, "sensor.control")
        self.bond_file = os.path.join(self.lab.scratch_dir, "peripheral-bonds")
        self.peripheral = None

    def tearDown(self):
        if self.peripheral:
            self.peripheral.stop()

    def start_peripheral(self, *rotation):
        if self.peripheral:
            self.peripheral.stop()
        self.peripheral = serve(self.lab, "--value", VALUE, "--irk", IRK, *rotation, "--control", self.control,
                                "--require-encryption", "--accept-pairing", "--bond-file", self.bond_file)
        # btvirt reports an advertiser when its advertising is enabled: a beacon is heard every 500 ms.
        self.air("beacon 500")

    def air(self, command):
        return peripheral_command(self.control, command)

    def finish(self, app, timeout=90):
        try:
            output, _ = app.communicate(timeout=timeout)
        finally:
            app.kill()
        self.lab.log(output)
        return output

    def test_pairing_learns_the_identity_and_the_grant_follows_the_rotations(self):
        # One private address while the setup runs (the picker shows what was heard).
        self.start_peripheral()
        held = re.search(r"holding ([0-9A-F:]{17})/random", self.air("hold")).group(1)
        self.assertEqual(int(held[0], 16) >> 2, 0b01, f"{held} is not a resolvable private address")
        apps = self.lab.write_app_manifests({"lock-app": APP})
        state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        try:
            daemon.wait_ready(timeout=90)
            mode = self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE)
            self.assertEqual(mode.get("PAIRING_MODE"), "mgmt", mode)
            app = self.lab.example_app("--bluetooth-service", SERVICE, "--name-substring", "Lab Sensor", "--pairing",
                                       "--read", f"{SERVICE}/{CHARACTERISTIC}")
            found = {}

            def listed():
                text = self.lab.accessoryctl("requests")
                request = re.search(r"^request (\d+):", text, re.M)
                candidate = re.search(rf"^\s+(\d+)\s.*{held}/random", text, re.M)
                if request and candidate:
                    found.update(request=request.group(1), candidate=candidate.group(1))
                    return True
                return False

            try:
                self.lab.wait_until(listed, timeout=60, what=f"the sensor at {held} as a candidate")
                self.lab.accessoryctl("approve", found["request"], found["candidate"])
            except BaseException:
                app.kill()
                raise
            output = self.finish(app)
            self.assertEqual(app.returncode, 0, output)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
            self.assertIn("pairing confirmed for", self.peripheral.output())
            # Granted under the identity address the pairing gave, not the private one it was heard at.
            approved = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="lock-app")
            self.assertEqual(approved.get("IDENTITY"), f"{self.sensor}/public", approved)
            accessory = approved.get("ACCESSORY_ID")
            listing = self.lab.accessoryctl("accessories")
            self.assertIn(f"{self.sensor}/public", listing)
            self.assertNotIn(held, listing)

            # The sensor restarts, its key from its bond file, and rotates its address from now on.
            self.start_peripheral("--rotate-seconds", str(ROTATE_SECONDS))
            self.assertIn("loaded 1 key(s)", self.peripheral.output())
            follower = self.lab.example_app("--follow", "120")
            reader = RotationReader(self, follower)
            try:
                reader.until(lambda seen: len(set(seen)) > ROTATIONS, time.monotonic() + ROTATE_SECONDS * (ROTATIONS + 1) + 40)
            finally:
                follower.kill()
                follower.wait(timeout=30)
            lines, text = reader.lines, reader.text()
            self.assertIn(f"bluetooth={self.sensor}/public", text)
            self.assertNotIn(f"presence: {accessory} absent", text)
            self.assertTrue(all(l.startswith(f"advertisement: {accessory} ") for l in lines
                                if l.startswith("advertisement:")), text)
            addresses = set(re.findall(r"address ([0-9A-F:]{17})/random", self.peripheral.output()))
            self.assertGreaterEqual(len(addresses), ROTATIONS + 1, self.peripheral.output())

            # A new channel, to whichever address it has now, encrypted with the bond.
            self.air("hold")
            reader = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}")
            output = self.finish(reader)
            self.assertEqual(reader.returncode, 0, output)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
            self.assertEqual(self.peripheral.output().count("pairing confirmed for"), 0, "no second pairing")
        finally:
            daemon.stop()
