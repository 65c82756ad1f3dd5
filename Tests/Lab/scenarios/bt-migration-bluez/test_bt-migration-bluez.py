"""A migration adopting the bond bluetoothd already keeps (ASMigrationDisplayItem's "peripheral
already known"). Before accessoryd runs, the gateway's bluetoothd pairs the accessory (bluetoothctl
on hci0, Just Works, bonded), as a person would have done before the app used accessoryd. The app
then migrates the accessory by its address, an administrator approves it with accessoryctl, and
accessoryd, having asked bluetoothd when the migration was asked for, records the bond as
bluetoothd's (KeptBy=bluetoothd, no keys, no IRK) and says so in the journal. The app reads the
characteristic that needs an encrypted link over the handed-over channel with no second pairing,
and removing the accessory removes bluetoothd's device.

Setup as bt-encryption-bluez: both controllers powered through the management interface before
bluetoothd starts, a bluetoothctl agent saying yes for the accessory's side, hci1's advertising
toggled until bluetoothd's discovery knows the accessory, and bluetoothd's storage cleaned."""

import os
import re
import subprocess
import tempfile
import threading
import time

from labkit import LabTestCase
from labkit.message_ids import ACCESSORIES_MIGRATED, BOND_ADOPTED, PAIRING_MODE

VALUE = "door locked"
SERVICE = "4C616253-656E-736F-7200-000000000001"
CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
APP = f"""\
[App]
Name=lock-app
User=nobody
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
"""
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

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


def device_path(controller, address):
    return f"/org/bluez/{controller}/dev_" + address.replace(":", "_").upper()


class Bluetoothctl:
    """bluetoothctl as bluetoothd's default agent, saying yes to every pairing it is asked about
    (the accessory's side of Just Works), and the person's bluetoothctl on the gateway."""

    def __init__(self, lab):
        self.log_path = os.path.join(lab.evidence_dir, "bluetoothctl.log")
        self.output = open(self.log_path, "wb")
        self.process = subprocess.Popen(["bluetoothctl", "--agent", "NoInputNoOutput"], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=subprocess.STDOUT)
        self.answered = 0
        self.stopping = threading.Event()
        lab.wait_until(lambda: "Agent registered" in self.text(), timeout=30, what="bluetoothctl's agent")
        self.send("default-agent")
        lab.wait_until(lambda: "Default agent request successful" in self.text(), timeout=30,
                       what="bluetoothctl to be the default agent")
        self.thread = threading.Thread(target=self.answer, daemon=True)
        self.thread.start()

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def text(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode(errors="replace")

    def answer(self):
        while not self.stopping.wait(0.2):
            asked = len(re.findall(r"Request (?:authorization|confirmation)", self.text()))
            while self.answered < asked:
                self.send("yes")
                self.answered += 1

    def close(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.output.close()


def le_links(lab, controller):
    listing = lab.run(["hcitool", "-i", controller, "con"], timeout=10).stdout
    return [line for line in listing.splitlines() if " LE " in line]


class MigrationBesideBluezTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.gateway_address = controllers["hci0"].address
        self.peer_address = controllers["hci1"].address
        # Powered through the management interface (the kernel's Security Manager), as bt-encryption-bluez.
        for index in ("0", "1"):
            for setting in (["power", "off"], ["bondable", "on"], ["power", "on"]):
                self.lab.run(["btmgmt", "--index", index, *setting], timeout=20).check()
        self.bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
        self.addCleanup(self.bluetoothd.stop)
        for address in (self.gateway_address, self.peer_address):
            self.lab.wait_until(lambda: "Powered: yes" in self.lab.run(["bluetoothctl", "show", address]).stdout,
                                timeout=30, what=f"bluetoothd to power {address}")
        self.forget("hci0", self.peer_address)
        self.forget("hci1", self.gateway_address)
        # bluetoothd's storage outlives the scenario: leave no bond behind for the next.
        self.addCleanup(self.forget, "hci1", self.gateway_address)
        self.addCleanup(self.forget, "hci0", self.peer_address)
        self.bluetoothctl = Bluetoothctl(self.lab)
        self.addCleanup(self.bluetoothctl.close)
        # After bluetoothd: the accessory's GATT server is lab-peripheral's, not bluetoothd's own on hci1.
        self.peripheral = self.lab.start_daemon(
            [self.lab.binary("lab-peripheral"), "serve", "--controller", "hci1", "--value", VALUE,
             "--require-encryption"],
            notify=False, name="lab-peripheral")
        self.addCleanup(self.peripheral.stop)
        self.lab.wait_until(lambda: "serving hci1" in self.peripheral.output() or self.failed_early(),
                            timeout=30, what="lab-peripheral to advertise and listen on hci1")

    def forget(self, controller, address):
        self.lab.run(["busctl", "call", "org.bluez", f"/org/bluez/{controller}", "org.bluez.Adapter1",
                      "RemoveDevice", "o", device_path(controller, address)], timeout=20)

    def failed_early(self):
        if not self.peripheral.is_running():
            raise AssertionError(f"lab-peripheral exited:\n{self.peripheral.output()}")
        return False

    def known_to_bluetoothd(self):
        return self.lab.run(["busctl", "get-property", "org.bluez", device_path("hci0", self.peer_address),
                             "org.bluez.Device1", "Address"], timeout=20).returncode == 0

    def device_property(self, name):
        """A property of bluetoothd's Device1 for the accessory on hci0, as busctl prints it; None without one."""
        result = self.lab.run(["busctl", "get-property", "org.bluez", device_path("hci0", self.peer_address),
                               "org.bluez.Device1", name], timeout=20)
        return result.stdout.strip() if result.returncode == 0 else None

    def pair_in_bluetoothd(self):
        """The person's bluetoothctl on the gateway: an LE scan on hci0 until bluetoothd knows the
        accessory (hci1's advertising toggled: the emulated controller reports an advertiser once per
        scan), then pair, then let the link go."""
        ctl = self.bluetoothctl
        # bluetoothctl takes its lines in order: the scan and the pairing are hci0's.
        ctl.send(f"select {self.gateway_address}")
        ctl.send("scan le")

        def nudged():
            for enable in ("00", "01"):
                self.lab.run(["hcitool", "-i", "hci1", "cmd", "0x08", "0x000a", enable], timeout=20)
            if self.known_to_bluetoothd():
                return True
            time.sleep(1)
            return False
        self.lab.wait_until(nudged, timeout=90, what="bluetoothd's discovery on hci0 to find the accessory")
        ctl.send("scan off")
        ctl.send(f"pair {self.peer_address}")
        self.lab.wait_until(lambda: "Pairing successful" in ctl.text() or "Failed to pair" in ctl.text(), timeout=90,
                            what="bluetoothctl's pair to end")
        self.assertIn("Pairing successful", ctl.text())
        self.lab.wait_until(lambda: self.device_property("Paired") == "b true", timeout=30, what="Paired")
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
            reader = subprocess.Popen(AS_NOBODY + [self.lab.binary("accessory-example"), "--read", f"{SERVICE}/{CHARACTERISTIC}"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            try:
                read, _ = reader.communicate(timeout=120)
            finally:
                reader.kill()
            self.lab.log(read)
            self.assertEqual(reader.returncode, 0, read)
            self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', read)
            self.assertEqual(self.bluetoothctl.answered, prompts, "no second pairing: " + self.bluetoothctl.text())
            self.assertEqual(self.device_property("Paired"), "b true")

            # The administrator removes the accessory: bluetoothd's bond goes with it.
            self.lab.accessoryctl("remove", accessory)
            self.lab.wait_until(lambda: self.device_property("Paired") is None, timeout=30,
                                what="bluetoothd to forget the accessory")
            self.assertNotIn(self.peer_address, self.lab.run(["bluetoothctl", "devices", "Paired"]).stdout)
            with open(os.path.join(state, "bonds")) as handle:
                self.assertNotIn("KeptBy=bluetoothd", handle.read())
        finally:
            daemon.stop()
