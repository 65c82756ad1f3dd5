"""`lab demo`: the whole story, narrated for a person watching.

A gateway with its uplink (wlan0 on "Home-Gateway"), a Bluetooth LE sensor on
hci1 and a lamp whose setup hotspot has a DHCP server and a web page. accessoryd
starts; an app (the example app, as the unprivileged `nobody`) asks for the sensor
and then for the lamp; the administrator approves each with accessoryctl; the app
reads the sensor's temperature over the Bluetooth channel accessoryd hands it, and
fetches the lamp's page over its hotspot; the gateway is back on its uplink
afterwards; the journal says who approved what.
"""

import json
import os
import re
import signal
import subprocess
import time
import traceback

from . import hwconf
from .guest import ScenarioRun, ScenarioTimeout, TEARDOWN_TIMEOUT
from .wifi import WPA_CONTROL_DIR

DEMO_TIMEOUT = 600

SENSOR_SERVICE = "4C616253-656E-736F-7200-000000000001"
SENSOR_CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
SENSOR_VALUE = "21.5 C"
LAMP_ADDRESS = "192.168.77.1"
LAMP_PORT = 8080
LAMP_PAGE = "Hello from the Lab Lamp: light is on, 40 % brightness\n"
LAMP_PASSPHRASE = "lamp-setup-passphrase"

APP_MANIFEST = f"""\
[App]
Name=sensor-logger
User=nobody
Supports=Bluetooth Wi-Fi

[Bluetooth]
ServiceUUIDs={SENSOR_SERVICE}
Names=Lab Sensor

[Wi-Fi]
SSIDPrefixes=LabLamp-
"""

# hci0 is the gateway's controller; hci1 is the sensor's.
CONFIG = f"""\
[Bluetooth]
Controllers=hci0

[Wi-Fi]
ScanInterval=2
Frequencies=2437
JoinInterface=wlan0
WPASupplicantDirectory={WPA_CONTROL_DIR}
"""

AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def run(plan, hardware, transcript):
    say = transcript.say
    scenario = ScenarioRun("demo", plan["demo_dir"], hardware, plan["build_dir"], plan["run_dir"], transcript)
    status = 1
    signal.alarm(DEMO_TIMEOUT)
    try:
        config = hwconf.load(os.path.join(plan["demo_dir"], "hw.conf"))
        say("== The lab: virtual radios under Debian's kernel")
        lab = scenario.prepare(config)
        _describe_radios(lab, say)
        story = Story(lab, say)
        status = story.tell()
    except ScenarioTimeout:
        say(f"demo: timed out after {DEMO_TIMEOUT} s")
    except Exception:
        say(f"demo: failed:\n{traceback.format_exc()}")
    finally:
        signal.alarm(TEARDOWN_TIMEOUT)
        try:
            scenario.teardown()
        except Exception:
            say(f"demo: teardown failed:\n{traceback.format_exc()}")
        signal.alarm(0)
    say("Demo finished." if status == 0 else "Demo finished with errors.")
    return status


class Story:
    def __init__(self, lab, say):
        self.lab = lab
        self.say = say

    def shell(self, argv, timeout=60, show=True):
        """Runs a command as root, showing it and its output like a terminal would."""
        result = self.lab.run(argv, timeout=timeout)
        if show:
            self.say(f"    # {' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))}")
            self.say(_indent(result.stdout.rstrip() or result.stderr.rstrip() or "(no output)", 6))
        return result

    def tell(self):
        lab, say = self.lab, self.say
        self.accessories()
        self.uplink = lab.start_wpa_supplicant("wlan0")
        joined = self.uplink.connect("Home-Gateway", psk="home-passphrase", timeout=90)
        say(f"The gateway's uplink: wlan0 is on \"Home-Gateway\" ({joined.get('bssid')}) through wpa_supplicant.")

        say("")
        say("== accessoryd starts")
        apps = lab.write_app_manifests({"sensor-logger": APP_MANIFEST})
        say("The app's manifest (installed by its package to /usr/share/accessoryd/apps.d/):")
        say(_indent(APP_MANIFEST.rstrip()))
        config = lab.write_file("accessoryd.conf", CONFIG)
        state = os.path.join(lab.scratch_dir, "state")
        daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--apps", apps,
                                   "--log-target=journal"], env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        say(f"accessoryd is ready: {(daemon.notifications('STATUS') or ['?'])[-1]}")

        say("")
        say("== The app asks for a Bluetooth LE sensor")
        app = self.app("--bluetooth-service", SENSOR_SERVICE, "--name-substring", "Lab Sensor",
                       "--read", f"{SENSOR_SERVICE}/{SENSOR_CHARACTERISTIC}")
        self.approve("Lab Sensor")
        ok_sensor = self.finish(app, "reads its sensor over the socket accessoryd handed it")

        say("")
        say("== The app asks for the lamp, through its setup hotspot")
        app = self.app("--wifi-ssid-prefix", "LabLamp-", "--join", "--fetch",
                       f"http://{LAMP_ADDRESS}:{LAMP_PORT}/lamp.txt", stdin=LAMP_PASSPHRASE + "\n")
        self.approve("LabLamp-Setup")
        ok_lamp = self.finish(app, "joins the lamp's hotspot, fetches its page, leaves")

        say("")
        say("== The gateway's own connection")
        status = self.uplink.status()
        back = status.get("wpa_state") == "COMPLETED" and status.get("ssid") == "Home-Gateway"
        deadline = time.monotonic() + 60
        while not back and time.monotonic() < deadline:
            time.sleep(1)
            status = self.uplink.status()
            back = status.get("wpa_state") == "COMPLETED" and status.get("ssid") == "Home-Gateway"
        say(f"wlan0: wpa_state={status.get('wpa_state')} ssid={status.get('ssid')} bssid={status.get('bssid')}"
            + ("  (back on the uplink)" if back else "  (NOT back on the uplink)"))
        self.shell([lab.binary("accessoryctl"), "accessories"])

        say("")
        say("== accessoryd stops (SIGTERM)")
        exit_status = daemon.stop(timeout=60)
        say(f"exit status {exit_status}")
        say("")
        say("== The journal: who approved what (journalctl SYSLOG_IDENTIFIER=accessoryd)")
        excerpt = lab.run(["journalctl", "--no-pager", "-o", "short-precise", "SYSLOG_IDENTIFIER=accessoryd"])
        say(_indent(excerpt.stdout.rstrip() or "(no entries)"))
        decisions = lab.run(["journalctl", "--no-pager", "-o", "json", "SYSLOG_IDENTIFIER=accessoryd",
                             "MESSAGE_ID=3209c5fa32a041dd9176aeef15669876"])
        say("The decisions, with their fields (journalctl MESSAGE_ID=3209c5fa32a041dd9176aeef15669876 -o json):")
        for line in decisions.stdout.splitlines():
            entry = json.loads(line)
            say("    " + " ".join(f"{key}={entry.get(key)!r}" for key in
                                  ("MESSAGE_ID", "APP", "ACCESSORY_ID", "IDENTITY", "DECIDED_BY")))
        return 0 if ok_sensor and ok_lamp and back and exit_status == 0 else 1

    def accessories(self):
        lab, say = self.lab, self.say
        # The lamp: an address, a DHCP server and a web page behind its hotspot.
        lab.run(["ip", "addr", "add", f"{LAMP_ADDRESS}/24", "dev", "wlan2"], netns="air").check()
        lab._children.spawn("dnsmasq", [
            "dnsmasq", "--keep-in-foreground", "--user=root", "--port=0", "--no-resolv", "--no-hosts",
            "--interface=wlan2", "--bind-interfaces", "--dhcp-range=192.168.77.10,192.168.77.50,255.255.255.0,1h",
            f"--dhcp-leasefile={lab.scratch_dir}/dnsmasq.leases"], netns="air")
        site = os.path.join(lab.scratch_dir, "site")
        os.makedirs(site, exist_ok=True)
        with open(os.path.join(site, "lamp.txt"), "w") as handle:
            handle.write(LAMP_PAGE)
        lab._children.spawn("http", ["python3", "-m", "http.server", str(LAMP_PORT), "--bind", LAMP_ADDRESS,
                                     "--directory", site], netns="air")
        say(f"The lamp: hostapd serves \"LabLamp-Setup\" (WPA2) on wlan2, with a DHCP server and a web page at "
            f"http://{LAMP_ADDRESS}:{LAMP_PORT}/lamp.txt, in its own network namespace.")
        # The sensor: lab-peripheral advertises on hci1 and serves GATT.
        peripheral = lab.start_daemon([lab.binary("lab-peripheral"), "serve", "--controller", "hci1",
                                       "--value", SENSOR_VALUE], notify=False, name="lab-peripheral")
        lab.wait_until(lambda: "serving hci1" in peripheral.output(), timeout=30, what="the sensor to advertise")
        sensor = next(c.address for c in lab.bluetooth_controllers() if c.name == "hci1")
        say(f"The sensor: hci1 ({sensor}) advertises \"Lab Sensor\" with service {SENSOR_SERVICE} and serves "
            f"its temperature (\"{SENSOR_VALUE}\") over GATT.")

    def app(self, *arguments, stdin=None):
        self.say(f"    $ accessory-example {' '.join(arguments)}    (as nobody: no capabilities, no radio access)")
        process = subprocess.Popen(AS_NOBODY + [self.lab.binary("accessory-example"), *arguments],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        process.stdin.write(stdin or "")
        process.stdin.flush()
        return process

    def approve(self, what):
        """The administrator, at the gateway's console."""
        found = {}

        def pending():
            listing = self.lab.run([self.lab.binary("accessoryctl"), "requests"]).stdout
            match = re.search(r"^request (\d+):", listing, re.M)
            if match and what in listing:
                found["request"] = match.group(1)
                return True
            return False

        self.lab.wait_until(pending, timeout=120, what=f"{what} as a candidate")
        self.say("The administrator looks at the pending request and approves it:")
        self.shell([self.lab.binary("accessoryctl"), "requests"])
        self.shell([self.lab.binary("accessoryctl"), "approve", found["request"], "1"])

    def finish(self, process, what):
        output, _ = process.communicate(timeout=180)
        self.say(_indent(output.rstrip(), 6))
        ok = process.returncode == 0
        self.say(f"The app {what}: {'done' if ok else f'FAILED (exit status {process.returncode})'}.")
        return ok


def _describe_radios(lab, say):
    gateway = ", ".join(f"{i.name} ({i.address})" for i in lab.wifi_interfaces())
    controllers = ", ".join(f"{c.name} ({c.address})" for c in lab.bluetooth_controllers())
    say(f"Gateway radios: Wi-Fi {gateway or 'none'}; Bluetooth LE {controllers or 'none'}.")
    say("In namespace 'air', across the virtual air: the home network's access point (wlan1) and the lamp's "
        "hotspot (wlan2).")


def _indent(text, width=4):
    return "\n".join(" " * width + line for line in text.splitlines())
