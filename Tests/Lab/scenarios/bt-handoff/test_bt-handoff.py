"""A Bluetooth LE channel handed to an app: the example app, as the unprivileged `nobody`
(no capabilities at all), asks for the lab's sensor, the administrator approves it with
accessoryctl, and the app reads the sensor's characteristic over the socket accessoryd
hands it; a second app without the grant is refused; removing the grant takes the
socket away from under the app."""

import os
import pwd
import re
import subprocess

from labkit import LabTestCase
from labkit.message_ids import ACCESSORY_APPROVED, BLUETOOTH_CHANNEL_OPENED

SERVICE = "4C616253-656E-736F-7200-000000000001"
CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
VALUE = "21.5 C"

APP = f"""\
[App]
Name=sensor-logger
User=nobody
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
Names=Lab Sensor
"""
INTRUDER = APP.replace("sensor-logger", "intruder").replace("User=nobody", "User=daemon")

AS_DAEMON = ["setpriv", "--reuid=daemon", "--regid=daemon", "--clear-groups"]

INTRUDER_SCRIPT = """
import dbus, sys
bus = dbus.SystemBus()
def call(path, interface, method, *args):
    try:
        getattr(dbus.Interface(bus.get_object("org.accessoryagent", path), interface), method)(*args)
        return "ok"
    except dbus.DBusException as e:
        return e.get_dbus_name() + ": " + e.get_dbus_message()
s = dbus.Interface(bus.get_object("org.accessoryagent", "/org/accessoryagent"), "org.accessoryagent.Manager1").OpenSession()
call(s, "org.accessoryagent.Session1", "Activate")
print(call(s, "org.accessoryagent.Session1", "OpenBluetoothChannel", dbus.ObjectPath(sys.argv[1]), dbus.UInt16(0)))
"""


class HandoffTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        apps = lab.write_app_manifests({"sensor-logger": APP, "intruder": INTRUDER})
        cls.peripheral = lab.start_daemon(
            [lab.binary("lab-peripheral"), "serve", "--controller", "hci1", "--value", VALUE],
            notify=False, name="lab-peripheral")
        lab.wait_until(lambda: "serving hci1" in cls.peripheral.output(), timeout=30,
                       what="lab-peripheral to advertise and listen on hci1")
        state = os.path.join(lab.scratch_dir, "state")
        # hci0 is the gateway's controller; hci1 is the sensor's.
        config = lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        cls.daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                       "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        cls.daemon.wait_ready(timeout=90)
        cls.sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == "hci1")

    def ctl(self, *arguments):
        return self.lab.accessoryctl(*arguments)

    def accessory(self):
        listing = self.ctl("accessories")
        match = re.search(r"^([0-9a-f]{16})\s+sensor-logger", listing, re.M)
        self.assertIsNotNone(match, listing)
        return match.group(1)

    def test_a_the_app_reads_its_sensor_over_the_handed_socket(self):
        app = self.lab.example_app("--bluetooth-service", SERVICE, "--name-substring", "Lab Sensor",
                                   "--read", f"{SERVICE}/{CHARACTERISTIC}")
        try:
            # No capability at all: whatever it does on the radio, accessoryd does for it.
            # Popen can return while the child is still the forked python3 (root, every
            # capability), and then setpriv runs as root too: look only once the example
            # app's own binary is what runs.
            binary = os.path.realpath(self.lab.binary("accessory-example"))
            self.lab.wait_until(lambda: os.path.realpath(f"/proc/{app.pid}/exe") == binary, timeout=10,
                                what="setpriv to exec the example app")
            with open(f"/proc/{app.pid}/status") as handle:
                status = handle.read()
            nobody = pwd.getpwnam("nobody").pw_uid
            self.assertIn(f"Uid:\t{nobody}\t{nobody}\t{nobody}\t{nobody}\n", status)
            self.assertIn("CapEff:\t0000000000000000", status)
            found = {}

            def listed():
                text = self.ctl("requests")
                match = re.search(r"^request (\d+):", text, re.M)
                if match and self.sensor in text:
                    found["request"] = match.group(1)
                    return True
                return False

            self.lab.wait_until(listed, timeout=90, what="the sensor as a candidate")
            self.ctl("approve", found["request"], "1")
            output, _ = app.communicate(timeout=90)
        finally:
            app.kill()
        self.lab.log(output)
        self.assertEqual(app.returncode, 0, output)
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', output)
        approved = self.lab.wait_for_journal(MESSAGE_ID=ACCESSORY_APPROVED, APP="sensor-logger")
        self.assertEqual(approved.get("IDENTITY"), f"{self.sensor}/public")
        opened = self.lab.wait_for_journal(MESSAGE_ID=BLUETOOTH_CHANNEL_OPENED, APP="sensor-logger")
        self.assertEqual(opened.get("CONTROLLER"), "hci0")

    def test_b_an_app_without_the_grant_is_refused(self):
        path = "/org/accessoryagent/accessory/" + self.accessory()
        script = self.lab.write_file("intruder.py", INTRUDER_SCRIPT)
        result = self.lab.run(AS_DAEMON + ["/usr/bin/python3", script, path])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(),
                         f"org.accessoryagent.Error.invalidRequest: unknown accessory {path.rsplit('/', 1)[1]}")

    def test_c_removing_the_grant_takes_the_socket_away(self):
        accessory = self.accessory()
        app = self.lab.example_app("--read", f"{SERVICE}/{CHARACTERISTIC}", "--hold", stdin=subprocess.PIPE)
        try:
            first = ""
            while "read:" not in first:
                line = app.stdout.readline()
                self.assertTrue(line, "the app ended before reading")
                first += line
            self.assertIn(f'= "{VALUE}"', first)
            self.ctl("remove", accessory)
            app.stdin.write("again\n")
            app.stdin.flush()
            output, _ = app.communicate(timeout=60)
        finally:
            app.kill()
        self.lab.log(first + output)
        # Its read failed: the channel is gone (exit 3), not the process.
        self.assertEqual(app.returncode, 3, first + output)
        self.assertNotIn("read:", output)
