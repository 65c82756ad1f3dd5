"""The Python example app (examples/python) against the real accessoryd, as an unprivileged
user of its own with no capability: it asks for the lab's sensor and then for the lamp,
the administrator approves each with accessoryctl, and the app reads the sensor's
characteristic over the socket accessoryd hands it (ATT spoken by the app itself),
joins the lamp's hotspot through accessoryd and fetches the lamp's page, then follows
presence. Issue #15: the API is usable from another language, shown, not claimed.
Issue #22: while the app follows, accessoryd is stopped and started again (a restart,
an upgrade); the app opens a new session by itself, says so once and reads its sensor
again over a new channel, then ends cleanly on SIGTERM as a unit being stopped does."""

import os
import grp
import pwd
import re
import signal
import subprocess

from labkit import LabTestCase
from labkit.message_ids import ACCESSORY_APPROVED, BLUETOOTH_CHANNEL_OPENED, HOTSPOT_JOIN_RESULT
from labkit.wifi import WPA_CONTROL_DIR

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
APP_SCRIPT = os.path.join(REPOSITORY, "examples", "python", "accessory_example.py")

USER = "pyexample"
SERVICE = "4C616253-656E-736F-7200-000000000001"
CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
VALUE = "21.5 C"
PASSPHRASE = "lamp-setup-passphrase"  # lamp.conf's
ACCESSORY_ADDRESS = "192.168.77.1"
SERVICE_PORT = 8080
PAGE = "lamp says hello"

MANIFEST = f"""\
[App]
Name=python-example
User={USER}
Supports=Bluetooth Wi-Fi

[Bluetooth]
ServiceUUIDs={SERVICE}
Names=Lab Sensor

[Wi-Fi]
SSIDPrefixes=Lamp-
"""


class PythonAppTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        # A user of the app's own, as its package would create it. The guest's /etc is a
        # copy of the host's, but useradd fails there writing /etc/shadow: a passwd line
        # (no password, no login, the group nogroup) is all the app needs.
        try:
            pwd.getpwnam(USER)
        except KeyError:
            uid = next(uid for uid in range(999, 900, -1) if uid not in {p.pw_uid for p in pwd.getpwall()})
            with open("/etc/passwd", "a") as handle:
                handle.write(f"{USER}:x:{uid}:{grp.getgrnam('nogroup').gr_gid}::/nonexistent:/usr/sbin/nologin\n")
        apps = lab.write_app_manifests({"python-example": MANIFEST})
        cls.peripheral = lab.start_daemon(
            [lab.binary("lab-peripheral"), "serve", "--controller", "hci1", "--value", VALUE],
            notify=False, name="lab-peripheral")
        lab.wait_until(lambda: "serving hci1" in cls.peripheral.output(), timeout=30,
                       what="lab-peripheral to advertise and listen on hci1")
        cls.sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == "hci1")
        # The lamp: an address, a DHCP server and a page, in its namespace.
        scratch = lab.scratch_dir
        lab.run(["ip", "addr", "add", f"{ACCESSORY_ADDRESS}/24", "dev", "wlan2"], netns="accessory").check()
        lab._children.spawn("dnsmasq", [
            "dnsmasq", "--keep-in-foreground", "--user=root", "--port=0", "--no-resolv", "--no-hosts",
            "--interface=wlan2", "--bind-interfaces", "--dhcp-range=192.168.77.10,192.168.77.50,255.255.255.0,1h",
            f"--dhcp-leasefile={scratch}/dnsmasq.leases", "--log-dhcp",
            f"--log-facility={lab.evidence_dir}/dnsmasq.log"], netns="accessory")
        site = os.path.join(scratch, "site")
        os.makedirs(site, exist_ok=True)
        with open(os.path.join(site, "lamp.txt"), "w") as handle:
            handle.write(PAGE + "\n")
        lab._children.spawn("http", ["python3", "-m", "http.server", str(SERVICE_PORT), "--bind", ACCESSORY_ADDRESS,
                                     "--directory", site], netns="accessory")
        # The gateway: wlan0 on its uplink under wpa_supplicant, hci0 its controller.
        cls.station = lab.start_wpa_supplicant("wlan0")
        cls.station.connect("Home-Gateway", psk="home-passphrase", timeout=90)
        config = lab.write_file("accessoryd.conf", (
            "[Bluetooth]\nControllers=hci0\n\n"
            "[Wi-Fi]\nScanInterval=2\nFrequencies=2437\nJoinInterface=wlan0\n"
            f"WPASupplicantDirectory={WPA_CONTROL_DIR}\n"))
        state = os.path.join(scratch, "state")
        cls.daemon_arguments = ([lab.binary("accessoryd"), "--config", config, "--apps", apps, "--log-target=journal"],
                                {**os.environ, "STATE_DIRECTORY": state})
        cls.daemon = lab.start_daemon(cls.daemon_arguments[0], env=cls.daemon_arguments[1])
        cls.daemon.wait_ready(timeout=90)

    def test_the_app_reads_its_sensor_and_fetches_its_lamps_page(self):
        lab = self.lab
        log_path = os.path.join(lab.evidence_dir, "python-app.log")
        arguments = ["--service", SERVICE, "--name", "Lab Sensor", "--characteristic", CHARACTERISTIC,
                     "--ssid-prefix", "Lamp-", "--fetch", f"http://{ACCESSORY_ADDRESS}:{SERVICE_PORT}/lamp.txt",
                     "--follow", "300"]
        lab.log(f"$ (as {USER}) python3 examples/python/accessory_example.py " + " ".join(arguments))
        with open(log_path, "w") as log:
            app = subprocess.Popen(["setpriv", f"--reuid={USER}", "--regid=nogroup", "--clear-groups",
                                    "/usr/bin/python3", APP_SCRIPT, *arguments],
                                   stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True, cwd="/",
                                   env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})

        def output():
            with open(log_path) as handle:
                return handle.read()
        try:
            app.stdin.write(PASSPHRASE + "\n")
            app.stdin.close()
            # Popen can return while the child is still the forked python3 (root); look
            # once setpriv has exec'd the app's interpreter as its user.
            python = os.path.realpath("/usr/bin/python3")

            def interpreter_runs():
                if app.poll() is not None:
                    raise AssertionError(f"the app ended (exit {app.returncode}) at once:\n{output()}")
                return os.path.realpath(f"/proc/{app.pid}/exe") == python
            lab.wait_until(interpreter_runs, timeout=10, what="setpriv to exec the Python app")
            with open(f"/proc/{app.pid}/status") as handle:
                status = handle.read()
            uid = pwd.getpwnam(USER).pw_uid
            self.assertIn(f"Uid:\t{uid}\t{uid}\t{uid}\t{uid}\n", status)
            self.assertIn("CapEff:\t0000000000000000", status)

            def request_for(identity):
                def found():
                    if app.poll() is not None:
                        raise AssertionError(f"the app ended (exit {app.returncode}) before asking:\n{output()}")
                    listing = lab.accessoryctl("requests")
                    match = re.search(r"^request (\d+):", listing, re.M)
                    return match.group(1) if match and identity in listing else None
                return found
            # One picker at a time: the sensor first, then the lamp.
            lab.accessoryctl("approve", lab.wait_until(request_for(self.sensor), timeout=120, what="the sensor"), "1")
            lab.accessoryctl("approve", lab.wait_until(request_for("Lamp-Setup"), timeout=120, what="the lamp"), "1")

            def following():
                if app.poll() is not None:
                    raise AssertionError(f"the app ended (exit {app.returncode}) before following:\n{output()}")
                return "following for 300 s" in output()
            lab.wait_until(following, timeout=180, what="the app to follow")
            # A restart, as an upgrade does it: stopped, then started with the same grants.
            self.assertEqual(self.daemon.stop(), 0)
            restarted = lab.start_daemon(self.daemon_arguments[0], env=self.daemon_arguments[1])
            restarted.wait_ready(timeout=90)
            type(self).daemon = restarted

            def read_again():
                if app.poll() is not None:
                    raise AssertionError(f"the app ended (exit {app.returncode}) after the restart:\n{output()}")
                return output().count(f'read: {CHARACTERISTIC} = "{VALUE}"') == 2
            lab.wait_until(read_again, timeout=120, what="the app to read its sensor again after the restart")
            app.send_signal(signal.SIGTERM)
            app.wait(timeout=60)
        finally:
            app.kill()
            app.wait()
        text = output()
        lab.log(text)
        self.assertEqual(app.returncode, 0, text)
        # Signals are believed from accessoryd's unique name only.
        self.assertRegex(text, r"(?m)^accessoryd is :\d+\.\d+$")
        self.assertIn(f'read: {CHARACTERISTIC} = "{VALUE}"', text)
        self.assertRegex(text, r"hotspot: joined interface=wlan0 address=192\.168\.77\.\d+")
        self.assertIn(f"fetched: {PAGE}", text)
        self.assertIn("left the hotspot", text)
        self.assertRegex(text, r"(?m)^presence: [0-9a-f]{16} present=(yes|no)$")
        # The restart: told once, with the two accessories back, and a second accessoryd.
        self.assertEqual(text.count("event: ServiceRestarted (2 accessories)"), 1, text)
        self.assertEqual(text.count("event: Activated("), 1, text)
        self.assertEqual(len(re.findall(r"(?m)^accessoryd is :\d+\.\d+$", text)), 2, text)
        # Two grants, the sensor's and the lamp's.
        self.assertEqual(len(lab.journal_entries(MESSAGE_ID=ACCESSORY_APPROVED, APP="python-example")), 2)
        opened = lab.wait_for_journal(MESSAGE_ID=BLUETOOTH_CHANNEL_OPENED, APP="python-example")
        self.assertEqual(opened.get("CONTROLLER"), "hci0")
        joined = lab.wait_for_journal(MESSAGE_ID=HOTSPOT_JOIN_RESULT, APP="python-example")
        self.assertTrue(joined.get("WIFI_JOIN_RESULT", "").startswith("joined"), joined)
        self.assertEqual(self.daemon.stop(), 0)
