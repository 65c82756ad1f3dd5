"""Two gateways publish the same approved sensor to one MQTT broker (issue #29, point 6).

Each gateway is an accessoryd with its own controller (hci0, hci1), its own private
D-Bus daemon, its own state and runtime directories, and its own accessory-mqtt (as
an unprivileged user of its own) named hall or kitchen. lab-peripheral advertises the
sensor on hci2; the administrator approves it for the bridge on each gateway. Both
gateways' presence topics then say home under their own name, with the RSSI the
controller reported (none here: BlueZ 5.66's emulated controllers, btvirt, put 0x7f,
"not available", in every advertising report, so the presence payload has no rssi;
the host tier's GatewayTests replays a capture with an RSSI), and no topic is written by both. Then the kitchen's bridge is
killed with SIGKILL: the broker publishes its last will, offline, and the hall stays
online."""

import grp
import json
import os
import pwd
import re
import signal
import time

from labkit import LabTestCase, bluetooth

USER = "mqttbridge"
SERVICE = "4C616253-656E-736F-7200-000000000001"
GATEWAYS = {"hall": "hci0", "kitchen": "hci1"}
SENSOR_CONTROLLER = "hci2"

MANIFEST = f"""\
[App]
Name=accessory-mqtt
User={USER}
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
Names=Lab Sensor
"""

BUS_CONFIG = """\
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>custom</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
  </policy>
</busconfig>
"""


def add_user(name):
    """A passwd line of its own (useradd cannot write the guest's /etc/shadow)."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        used = {p.pw_uid for p in pwd.getpwall()}
        uid = next(uid for uid in range(998, 900, -1) if uid not in used)
        with open("/etc/passwd", "a") as handle:
            handle.write(f"{name}:x:{uid}:{grp.getgrnam('nogroup').gr_gid}::/nonexistent:/usr/sbin/nologin\n")


class Gateway:
    """One gateway: a private bus, accessoryd on it with one controller, later its bridge."""

    def __init__(self, lab, name, controller, port):
        self.lab = lab
        self.name = name
        self.controller = controller
        root = os.path.join(lab.scratch_dir, name)
        for directory in ("apps", "state", "runtime"):
            os.makedirs(os.path.join(root, directory), exist_ok=True)
        os.chmod(root, 0o755)
        with open(os.path.join(root, "apps", "accessory-mqtt.conf"), "w") as handle:
            handle.write(MANIFEST)
        socket_path = os.path.join(root, "bus")
        with open(os.path.join(root, "bus.conf"), "w") as handle:
            handle.write(BUS_CONFIG.format(socket=socket_path))
        self.bus = f"unix:path={socket_path}"
        lab.log(f"$ dbus-daemon --config-file={root}/bus.conf --nofork  # the {name} gateway's bus")
        lab._children.spawn(f"dbus-{name}", ["dbus-daemon", f"--config-file={root}/bus.conf", "--nofork", "--nopidfile"])
        lab.wait_until(lambda: os.path.exists(socket_path), timeout=30, what=f"the {name} bus socket")
        os.chmod(socket_path, 0o777)
        self.env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.bus,
                    "STATE_DIRECTORY": os.path.join(root, "state"), "RUNTIME_DIRECTORY": os.path.join(root, "runtime")}
        config = os.path.join(root, "accessoryd.conf")
        with open(config, "w") as handle:
            handle.write(f"[Bluetooth]\nControllers={controller}\n")
        self.daemon = lab.start_daemon(
            [lab.binary("accessoryd"), "--config", config, "--apps", os.path.join(root, "apps"), "--log-target=console"],
            env=self.env, name=f"accessoryd-{name}")
        with open(os.path.join(root, "accessory-mqtt.conf"), "w") as handle:
            handle.write(f"[Broker]\nHost=127.0.0.1\nPort={port}\nKeepAlive=5s\n\n"
                         f"[Bridge]\nGateway={name}\nMinimumInterval=2s\n")
        self.bridge_config = os.path.join(root, "accessory-mqtt.conf")
        self.bridge = None

    def as_bridge_user(self, argv):
        return ["setpriv", f"--reuid={USER}", "--regid=nogroup", "--clear-groups", *argv]

    def busctl(self, *arguments, user=True):
        argv = ["busctl", f"--address={self.bus}", *arguments]
        return self.lab.run(self.as_bridge_user(argv) if user else argv, timeout=30, env=self.env)

    def accessoryctl(self, *arguments):
        result = self.lab.run([self.lab.binary("accessoryctl"), *arguments], timeout=30, env=self.env)
        if result.returncode != 0:
            raise AssertionError(f"{self.name}: accessoryctl {' '.join(arguments)}: {result.returncode}: {result.stderr}")
        return result.stdout

    def approve_the_sensor(self, sensor_address):
        """As the bridge's user: a persistent session's picker for the sensor; then the administrator approves."""
        opened = self.busctl("call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Manager1",
                             "OpenPersistentSession")
        opened.check()
        session = opened.stdout.split('"')[1]
        self.busctl("call", "org.accessoryagent", session, "org.accessoryagent.Session1", "Activate").check()
        self.busctl("call", "org.accessoryagent", session, "org.accessoryagent.Session1", "ShowPicker",
                    "a(ssa{ss}asas)a{ss}", "1", "Sensor", "", "2", "ServiceUUID", SERVICE, "NameSubstring", "Lab Sensor",
                    "0", "0", "1", "DiscoveryTimeout", "long").check()

        def request():
            listing = self.accessoryctl("requests")
            match = re.search(r"^request (\d+):", listing, re.M)
            return match.group(1) if match and sensor_address in listing else None
        number = self.lab.wait_until(request, timeout=120, what=f"the sensor offered on the {self.name} gateway")
        self.accessoryctl("approve", number, "1")
        listed = self.busctl("call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Admin1",
                             "ListAccessories", user=False)
        listed.check()
        return listed.stdout.split('"')[1]

    def start_bridge(self):
        os.chmod(self.bridge_config, 0o644)
        self.bridge = self.lab.start_daemon(
            self.as_bridge_user([self.lab.binary("accessory-mqtt"), "--config", self.bridge_config]),
            notify=False, env=self.env, name=f"accessory-mqtt-{self.name}")


class MqttGatewaysTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        add_user(USER)
        # The broker: mosquitto on loopback, no persistence, run as root (no user switch in the guest).
        cls.port = 1883
        conf = lab.write_file("mosquitto.conf", (
            "persistence false\nuser root\n"
            f"log_dest file {lab.evidence_dir}/mosquitto.log\nlog_type all\n"
            f"listener {cls.port} 127.0.0.1\nallow_anonymous true\n"))
        lab.run(["ip", "link", "set", "lo", "up"]).check()
        lab.log(f"$ mosquitto -c {conf}")
        lab._children.spawn("mosquitto", ["/usr/sbin/mosquitto", "-c", conf])
        lab.wait_until(lambda: lab.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(cls.port), "-t", "lab/hello",
                                        "-m", "x"], timeout=10).returncode == 0, timeout=30, what="mosquitto to listen")
        # The sensor on the third controller.
        cls.peripheral = lab.start_daemon(
            [lab.binary("lab-peripheral"), "serve", "--controller", SENSOR_CONTROLLER, "--value", "21.5 C"],
            notify=False, name="lab-peripheral")
        lab.wait_until(lambda: f"serving {SENSOR_CONTROLLER}" in cls.peripheral.output(), timeout=30,
                       what="lab-peripheral to advertise")
        cls.sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == SENSOR_CONTROLLER)
        cls.gateways = {name: Gateway(lab, name, controller, cls.port) for name, controller in GATEWAYS.items()}
        for gateway in cls.gateways.values():
            gateway.daemon.wait_ready(timeout=120)

    def retained(self):
        """Every retained message now, as mosquitto_sub sees it."""
        # Ended by timeout's SIGKILL after 2 s: the retained messages come at once.
        result = self.lab.run(["timeout", "-s", "KILL", "2", "mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.port),
                               "-t", "#", "-v", "--retained-only"], timeout=20)
        messages = {}
        for line in result.stdout.splitlines():
            topic, _, payload = line.partition(" ")
            messages[topic] = payload
        return messages

    def test_two_gateways_publish_the_sensor_and_a_killed_bridge_says_offline(self):
        lab = self.lab
        ids = {name: gateway.approve_the_sensor(self.sensor) for name, gateway in self.gateways.items()}
        lab.log(f"approved: {ids}")
        for gateway in self.gateways.values():
            gateway.start_bridge()

        def presence(name):
            return f"accessory-mqtt/{name}/accessory/{ids[name]}/presence"

        sensor_air = bluetooth.Advertiser(SENSOR_CONTROLLER, log=lab.log)
        last_toggle = [time.monotonic()]

        def both_home():
            messages = self.retained()
            if all('"state":"home"' in messages.get(presence(name), "") for name in self.gateways):
                return messages
            # The emulated controllers report an advertiser when its advertising is enabled
            # again: toggle the sensor's, as lab.readvertise does, now and then.
            if time.monotonic() - last_toggle[0] >= 5:
                last_toggle[0] = time.monotonic()
                sensor_air.readvertise()
            return None
        messages = lab.wait_until(both_home, timeout=180, what="both gateways to publish the sensor as home")
        lab.log("retained:\n" + "\n".join(f"  {topic} {payload}" for topic, payload in sorted(messages.items())))
        for name in self.gateways:
            published = json.loads(messages[presence(name)])
            lab.log(f"{name}: {messages[presence(name)]}")
            self.assertEqual(published["state"], "home")
            self.assertEqual(published["gateway"], name)
            tracker = f"homeassistant/device_tracker/accessory-mqtt_{name}/{ids[name]}_presence/config"
            self.assertIn('"source_type":"bluetooth_le"', messages.get(tracker, ""), tracker)
            self.assertIn(f'"via_device":"accessory-mqtt_{name}"', messages[tracker])
            rssi = f"homeassistant/sensor/accessory-mqtt_{name}/{ids[name]}_rssi/config"
            self.assertIn('"device_class":"signal_strength"', messages.get(rssi, ""), rssi)
            self.assertEqual(messages.get(f"accessory-mqtt/{name}/status"), "online")
            # The RSSI the controller reported, when it reported one (btvirt's reports say 127, not available).
            lab.log(f"{name}: rssi {published.get('rssi', 'absent (the controller reported none)')}")
        # No topic is written by both gateways: each name owns its own.
        hall = {t for t in messages if "/hall/" in t or "accessory-mqtt_hall" in t}
        kitchen = {t for t in messages if "/kitchen/" in t or "accessory-mqtt_kitchen" in t}
        self.assertFalse(hall & kitchen)
        self.assertEqual(len(hall) + len(kitchen), len([t for t in messages if not t.startswith("lab/")]))

        started = time.monotonic()
        self.gateways["kitchen"].bridge.signal(signal.SIGKILL)
        self.gateways["kitchen"].bridge.wait_exit(timeout=30)

        def kitchen_offline():
            messages = self.retained()
            return messages if messages.get("accessory-mqtt/kitchen/status") == "offline" else None
        after = lab.wait_until(kitchen_offline, timeout=60, what="the broker to publish the kitchen's last will")
        lab.log(f"kitchen's bridge killed (SIGKILL); the broker published its last will after "
                f"{time.monotonic() - started:.1f} s: accessory-mqtt/kitchen/status {after['accessory-mqtt/kitchen/status']}")
        self.assertEqual(after.get("accessory-mqtt/hall/status"), "online")
        self.assertTrue(self.gateways["hall"].bridge.is_running())
        for gateway in self.gateways.values():
            self.assertEqual(gateway.daemon.stop(), 0, gateway.daemon.output())
