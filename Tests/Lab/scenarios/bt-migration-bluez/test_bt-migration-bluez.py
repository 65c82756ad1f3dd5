"""A migration adopting the bond bluetoothd already keeps (ASMigrationDisplayItem's "peripheral
already known"). Before accessoryd runs, the gateway's bluetoothd pairs the accessory (bluetoothctl
on hci0, Just Works, bonded), as a person would have done before the app used accessoryd. The app
then migrates the accessory by its address, an administrator approves it with accessoryctl, and
accessoryd, having asked bluetoothd when the migration was asked for, records the bond as
bluetoothd's (KeptBy=bluetoothd, no keys, no IRK) and says so in the journal. The app reads the
characteristic that needs an encrypted link over the handed-over channel with no second pairing,
and removing the accessory removes bluetoothd's device.

Setup as bt-encryption-bluez (labkit/bluez.py): both controllers powered through the management
interface before bluetoothd starts, a bluetoothctl agent saying yes for the accessory's side, hci1's
advertising toggled until bluetoothd's discovery knows the accessory, and bluetoothd's storage
cleaned. The app's manifest names no pairing: the bond comes with the migration."""

import os
import re
import subprocess
import tempfile

from labkit import LabTestCase
from labkit.bluez import (AccessoryAgent, device_property, forget_each_other, nudge_until_known, paired,
                          start_bluetoothd)
from labkit.helper import AS_NOBODY
from labkit.lock import CHARACTERISTIC, SERVICE, VALUE
from labkit.message_ids import ACCESSORIES_MIGRATED, BOND_ADOPTED, PAIRING_MODE
from labkit.peripheral import le_links, serve

APP = f"""\
[App]
Name=lock-app
User=nobody
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
"""

# The app: its session asks to migrate the lock it managed before, by address, and prints what it
# was given once the administrator decided.
MIGRATE_SCRIPT = """
import dbus, sys
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
manager = dbus.Interface(bus.get_object("org.accessoryagent", "/org/accessoryagent"), "org.accessoryagent.Manager1")
path = manager.OpenSession()
session = dbus.Interface(bus.get_object("org.accessoryagent", path), "org.accessoryagent.Session1")
session.Activate()
loop = GLib.MainLoop()
added = []
bus.add_signal_receiver(lambda accessory: added.append(str(accessory)), signal_name="AccessoryAdded",
                        dbus_interface="org.accessoryagent.Session1", path=path)
bus.add_signal_receiver(lambda error, message: loop.quit(), signal_name="PickerDidDismiss",
                        dbus_interface="org.accessoryagent.Session1", path=path)
session.Migrate(dbus.Array([("Front Door", sys.argv[1], "", dbus.Dictionary({}, signature="ss"))],
                           signature="(sssa{ss})"))
loop.run()
print("added", *added, flush=True)
"""


class MigrationBesideBluezTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.gateway_address = controllers["hci0"].address
        self.peer_address = controllers["hci1"].address
        start_bluetoothd(self, [self.gateway_address, self.peer_address])
        forget_each_other(self, self.gateway_address, self.peer_address)
        # The accessory's side of Just Works, and the person's bluetoothctl on the gateway.
        self.bluetoothctl = AccessoryAgent(self.lab)
        self.addCleanup(self.bluetoothctl.close)
        # After bluetoothd: the accessory's GATT server is lab-peripheral's, not bluetoothd's own on hci1.
        self.peripheral = serve(self.lab, "--value", VALUE, "--require-encryption")

    def pair_in_bluetoothd(self):
        """The person's bluetoothctl on the gateway: an LE scan on hci0 until bluetoothd knows the
        accessory (hci1's advertising toggled: the emulated controller reports an advertiser once per
        scan), then pair, then let the link go."""
        ctl = self.bluetoothctl
        # bluetoothctl takes its lines in order: the scan and the pairing are hci0's.
        ctl.send(f"select {self.gateway_address}")
        ctl.send("scan le")

        self.assertTrue(nudge_until_known(self.lab, self.peer_address),
                        "bluetoothd's discovery on hci0 to find the accessory")
        ctl.send("scan off")
        ctl.send(f"pair {self.peer_address}")
        self.lab.wait_until(lambda: "Pairing successful" in ctl.text() or "Failed to pair" in ctl.text(), timeout=90,
                            what="bluetoothctl's pair to end")
        self.assertIn("Pairing successful", ctl.text())
        self.lab.wait_until(lambda: device_property(self.lab, self.peer_address, "Paired") == "b true", timeout=30, what="Paired")
        # bluetoothd stays connected after pairing, holding the link's one ATT channel: the app's needs it.
        ctl.send(f"disconnect {self.peer_address}")
        self.lab.wait_until(lambda: not le_links(self.lab, "hci0"), timeout=30, what="the pairing's LE link to go down")

    def start_accessoryd(self, apps, state):
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal", "--log-level=debug"],
                                       env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        return daemon

    def test_a_migration_adopts_bluetoothds_bond_reads_encrypted_and_removal_removes_it(self):
        self.pair_in_bluetoothd()
        prompts = self.bluetoothctl.answered
        self.lab.log(f"bluetoothd paired the accessory; the agent answered {prompts} prompt(s)")

        apps = self.lab.write_app_manifests({"lock-app": APP})
        state = tempfile.mkdtemp(prefix="state-", dir=self.lab.scratch_dir)
        daemon = self.start_accessoryd(apps, state)
        try:
            mode = self.lab.wait_for_journal(MESSAGE_ID=PAIRING_MODE)
            self.assertEqual(mode.get("PAIRING_MODE"), "bluez", mode)
            script = self.lab.write_file("migrate.py", MIGRATE_SCRIPT)
            self.lab.log(f"$ (as nobody) python3 migrate.py {self.peer_address}")
            app = subprocess.Popen(AS_NOBODY + ["/usr/bin/python3", script, self.peer_address],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            try:
                def migration():
                    found = re.search(r"^request (\d+): lock-app migrates", self.lab.accessoryctl("requests"), re.M)
                    return found.group(1) if found else None
                number = self.lab.wait_until(migration, timeout=30, what="the migration request")
                approved = self.lab.accessoryctl("approve", number, "0")
                self.lab.log(approved)
                output, _ = app.communicate(timeout=60)
            finally:
                app.kill()
            self.lab.log(output)
            added = re.search(r"^added /org/accessoryagent/accessory/([0-9a-f]{16})$", output, re.M)
            self.assertIsNotNone(added, output)
            accessory = added.group(1)
            self.assertIn(f"granted: \"Front Door\" ({self.peer_address}/public) as accessory {accessory}", approved)
            self.lab.wait_for_journal(MESSAGE_ID=ACCESSORIES_MIGRATED, APP="lock-app")
            adopted = self.lab.wait_for_journal(MESSAGE_ID=BOND_ADOPTED, APP="lock-app")
            self.assertEqual(adopted.get("ACCESSORY_ID"), accessory, adopted)
            self.assertEqual(adopted.get("IDENTITY"), f"{self.peer_address}/public", adopted)
            self.assertIn("Bond adopted from bluetoothd for accessory", adopted.get("MESSAGE", ""))
            # bluetoothd keeps the keys; accessoryd's store only says so.
            with open(os.path.join(state, "bonds")) as handle:
                store = handle.read()
            self.lab.log(store)
            self.assertIn("KeptBy=bluetoothd", store)
            self.assertNotIn("LongTermKey=", store)

            # The characteristic needs an encrypted link: the channel asks for it, with bluetoothd's key.
            reader = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}")
            try:
                read, _ = reader.communicate(timeout=120)
            finally:
                reader.kill()
            self.lab.log(read)
            self.assertEqual(reader.returncode, 0, read)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', read)
            self.assertEqual(self.bluetoothctl.answered, prompts, "no second pairing: " + self.bluetoothctl.text())
            self.assertEqual(device_property(self.lab, self.peer_address, "Paired"), "b true")

            # The administrator removes the accessory: bluetoothd's bond goes with it.
            self.lab.accessoryctl("remove", accessory)
            self.lab.wait_until(lambda: device_property(self.lab, self.peer_address, "Paired") is None, timeout=30,
                                what="bluetoothd to forget the accessory")
            self.assertNotIn(self.peer_address, paired(self.lab))
            with open(os.path.join(state, "bonds")) as handle:
                self.assertNotIn("KeptBy=bluetoothd", handle.read())
        finally:
            daemon.stop()
