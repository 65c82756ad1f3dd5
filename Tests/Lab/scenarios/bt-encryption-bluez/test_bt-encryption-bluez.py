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
import subprocess
import tempfile
import threading
import time

from labkit import LabTestCase
from labkit.message_ids import ACCESSORY_APPROVED, PAIRING_MODE, SETUP_PAIRING_STARTED

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
Names=Lab Sensor
Pairing=yes
"""
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def device_path(controller, address):
    return f"/org/bluez/{controller}/dev_" + address.replace(":", "_").upper()


class AccessoryAgent:
    """bluetoothctl as bluetoothd's default agent, saying yes to every pairing it is asked about:
    the accessory's side of Just Works (an accessory without buttons)."""

    def __init__(self, lab):
        self.log_path = os.path.join(lab.evidence_dir, "bluetoothctl-agent.log")
        self.output = open(self.log_path, "wb")
        self.process = subprocess.Popen(["bluetoothctl", "--agent", "NoInputNoOutput"], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=subprocess.STDOUT)
        self.answered = 0
        self.stopping = threading.Event()
        # bluetoothctl registers its agent once it is connected to bluetoothd; commands before that fail.
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
            # Once per request: bluetoothctl prints its prompt again after every line of other output.
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


class EncryptionBesideBluezTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.gateway_address = controllers["hci0"].address
        self.peer_address = controllers["hci1"].address
        # Powered through the management interface, as bt-encryption says: only then does the kernel
        # register its Security Manager for a controller. bluetoothd finds them powered and keeps them so.
        for index in ("0", "1"):
            for setting in (["power", "off"], ["bondable", "on"], ["power", "on"]):
                self.lab.run(["btmgmt", "--index", index, *setting], timeout=20).check()
        self.bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
        self.addCleanup(self.bluetoothd.stop)
        for address in (self.gateway_address, self.peer_address):
            self.lab.wait_until(lambda: "Powered: yes" in self.lab.run(["bluetoothctl", "show", address]).stdout,
                                timeout=30, what=f"bluetoothd to power {address}")
        # Nothing left from an earlier run in this boot: each side forgets the other.
        self.forget("hci0", self.peer_address)
        self.forget("hci1", self.gateway_address)
        # bluetoothd's storage outlives the scenario: leave no bond behind for the next.
        self.addCleanup(self.forget, "hci1", self.gateway_address)
        self.addCleanup(self.forget, "hci0", self.peer_address)
        self.agent = AccessoryAgent(self.lab)
        self.addCleanup(self.agent.close)
        # After bluetoothd: the kernel gives an LE link's ATT channel to the newest listener, and
        # the accessory's GATT server is lab-peripheral's, not bluetoothd's own on hci1.
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

    def nudge_until_known(self, app):
        """Toggles hci1's advertising (lab-peripheral's) until bluetoothd has the accessory's Device1."""
        def nudge():
            while app.poll() is None and not self.known_to_bluetoothd():
                for enable in ("00", "01"):
                    self.lab.run(["hcitool", "-i", "hci1", "cmd", "0x08", "0x000a", enable], timeout=20)
                time.sleep(1)
        thread = threading.Thread(target=nudge, daemon=True)
        thread.start()
        return thread

    def paired_in_bluetoothd(self):
        """bluetoothd's Paired property of the accessory on hci0; None when it has no such device."""
        result = self.lab.run(["busctl", "get-property", "org.bluez", device_path("hci0", self.peer_address),
                               "org.bluez.Device1", "Paired"], timeout=20)
        if result.returncode != 0:
            return None
        return result.stdout.strip() == "b true"

    def start_accessoryd(self, apps, state):
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                        "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        return daemon

    def example(self, *arguments):
        self.lab.log("$ (as nobody) accessory-example " + " ".join(arguments))
        log = open(os.path.join(self.lab.evidence_dir, "example-app.log"), "a")
        return subprocess.Popen(AS_NOBODY + [self.lab.binary("accessory-example"), *arguments],
                                stdout=subprocess.PIPE, stderr=log, text=True)

    def read_as_app(self, *arguments):
        app = self.example(*arguments, "--read", f"{SERVICE}/{CHARACTERISTIC}")
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
            app = self.example("--bluetooth-service", SERVICE, "--name-substring", "Lab Sensor", "--pairing",
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
                nudging = self.nudge_until_known(app)
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
            self.assertTrue(self.paired_in_bluetoothd(), "bluetoothd lists the accessory as paired")
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
            self.lab.wait_until(lambda: self.paired_in_bluetoothd() is None, timeout=30,
                                what="bluetoothd to forget the accessory")
            self.assertNotIn(self.peer_address, self.lab.run(["bluetoothctl", "devices", "Paired"]).stdout)
            with open(os.path.join(state, "bonds")) as handle:
                self.assertNotIn("KeptBy=bluetoothd", handle.read())
        finally:
            daemon.stop()
