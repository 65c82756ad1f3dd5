"""Identity across address rotation: the sensor is bonded before accessoryd starts (the test
writes a grant and a bond with its IRK into accessoryd's state directory, in the stores' own
formats), then advertises from resolvable private addresses made from that IRK, a new one every
3 s, numbering its rotations in its advertising data. The app (accessory-example, as nobody)
keeps seeing its accessory under its identity address, present, with an advertisement for each
rotation and no absence, across at least three rotations; then the sensor holds its address and
the app opens a channel to it and reads its characteristic (accessoryd connects to the identity
address: the kernel holds the IRK accessoryd loaded and resolves the sensor's addresses itself)."""

import os
import re
import time

from labkit import LabTestCase
from labkit.bluetooth import peripheral_command
from labkit.rotation import IRK, RotationReader
from labkit.message_ids import BLUETOOTH_CHANNEL_OPENED

SERVICE = "4C616253-656E-736F-7200-000000000001"
CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
VALUE = "21.5 C"
# The IRK of the Core Specification's sample data (Vol 3 Part H, Appendix D.7 uses it for ah).
ACCESSORY = "00000000000000a1"
ROTATE_SECONDS = 3
# Rotations the app must see after its first advertisement (four addresses).
ROTATIONS = 3

APP = f"""\
[App]
Name=sensor-logger
User=nobody
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
Names=Lab Sensor
"""


def fnv1a64(body):
    value = 0xcbf29ce484222325
    for byte in body:
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def store_file(header, body):
    """A store in accessoryd's framing: the body, then its FNV-1a-64 checksum."""
    data = (f"# accessoryd {header} store: written atomically by accessoryd; do not edit.\n" + body).encode()
    return data + f"[Checksum]\nFNV-1a-64={fnv1a64(data)}\n".encode()


class RotationTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        cls.sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == "hci1")
        # hci0 powered through the management interface, as accessoryd's ControllerPower powers it on
        # a gateway: only then does the kernel run its Security Manager there, which also resolves the
        # private addresses of the IRKs accessoryd loads (and a connection to the identity address
        # waits for one of them).
        for setting in (["power", "off"], ["power", "on"]):
            lab.run(["btmgmt", "--index", "0", *setting], timeout=20).check()
        cls.control = os.path.join(lab.scratch_dir, "sensor.control")
        cls.peripheral = lab.start_daemon(
            [lab.binary("lab-peripheral"), "serve", "--controller", "hci1", "--value", VALUE,
             "--irk", IRK, "--rotate-seconds", str(ROTATE_SECONDS), "--control", cls.control],
            notify=False, name="lab-peripheral")
        lab.wait_until(lambda: "serving hci1" in cls.peripheral.output(), timeout=30,
                       what="lab-peripheral to advertise and listen on hci1")
        # btvirt reports an advertiser when its advertising is enabled: a beacon is heard every 500 ms.
        cls.air("beacon 500")
        state = os.path.join(lab.scratch_dir, "state")
        os.makedirs(state, mode=0o700, exist_ok=True)
        grants = store_file("grant", f"[Store]\nVersion=1\nGrants=1\n[Grant {ACCESSORY}]\nApp=sensor-logger\n"
                                     f"DisplayName=Lab Sensor\nState=authorized\nBluetoothAddress={cls.sensor}\n"
                                     "BluetoothAddressType=0\n")
        bonds = store_file("bond", f"[Store]\nVersion=1\nBonds=1\n[Bond {ACCESSORY}]\nBluetoothAddress={cls.sensor}\n"
                                   f"BluetoothAddressType=0\nIdentityResolvingKey={IRK}\n")
        for name, data in (("grants", grants), ("bonds", bonds)):
            descriptor = os.open(os.path.join(state, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
        apps = lab.write_app_manifests({"sensor-logger": APP})
        config = lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        cls.daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                       "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        cls.daemon.wait_ready(timeout=90)

    @classmethod
    def air(cls, command):
        return peripheral_command(cls.control, command)

    def test_a_the_app_follows_its_sensor_across_rotations_then_reads_it(self):
        app = self.lab.example_app("--follow", "120")
        reader = RotationReader(self, app)
        try:
            deadline = time.monotonic() + ROTATE_SECONDS * (ROTATIONS + 1) + 30
            reader.until(lambda seen: len(set(seen)) > ROTATIONS, deadline)
            # The address it advertises from now stays; the app hears the advertisement made with it.
            held = int(re.search(r"rotation (\d+)", self.air("hold")).group(1)) % 256
            reader.until(lambda seen: held in seen, deadline + 20)
        finally:
            app.kill()
            app.wait(timeout=30)
        lines, seen, text = reader.lines, reader.seen, reader.text()
        # One accessory, under its identity address, present, never absent, one advertisement per rotation.
        self.assertIn(f"accessory {ACCESSORY} \"Lab Sensor\"", text)
        self.assertIn(f"bluetooth={self.sensor}/public", text)
        self.assertTrue(f"presence: {ACCESSORY} present" in text or "present=yes" in text, text)
        self.assertNotIn(f"presence: {ACCESSORY} absent", text)
        self.assertTrue(all(l.startswith(f"advertisement: {ACCESSORY} ") for l in lines
                            if l.startswith("advertisement:")), text)
        self.assertEqual(seen, sorted(seen), "each rotation's advertisements in order")
        addresses = set(re.findall(r"address ([0-9A-F:]{17})/random", self.peripheral.output()))
        self.assertGreaterEqual(len(addresses), ROTATIONS + 1, self.peripheral.output())
        self.assertTrue(all(int(a[0], 16) >> 2 == 0b01 for a in addresses), "resolvable private addresses")

        reader = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}")
        try:
            output, _ = reader.communicate(timeout=90)
        finally:
            reader.kill()
        self.lab.log(output)
        self.assertEqual(reader.returncode, 0, output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        self.lab.wait_for_journal(MESSAGE_ID=BLUETOOTH_CHANNEL_OPENED, APP="sensor-logger")
        self.assertIn("connected", self.peripheral.output())
