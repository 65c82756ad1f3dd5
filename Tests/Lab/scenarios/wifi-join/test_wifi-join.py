"""accessoryd --join-hotspot joins an accessory's WPA2 hotspot through wpa_supplicant,
gets an address from its DHCP server, reaches its service, and puts wlan0 back on
the uplink afterwards: after leaving, after a wrong passphrase, after an absent SSID,
and at the next start after being killed with SIGKILL in the middle of a join. Then the
same through D-Bus, as an app does it: joined and left, refused to another app, and
ended when the app leaves the bus, the administrator removes its accessory, or the
hotspot goes away."""

import json
import os
import re
import signal
import socket
import subprocess
import time

from labkit import LabTestCase
from labkit.message_ids import HOTSPOT_JOIN_ENDED, HOTSPOT_JOIN_RESULT
from labkit.wifi import WPA_CONTROL_DIR

PASSPHRASE = b'lamp pass "quoted" phrase'
ACCESSORY_ADDRESS = "192.168.77.1"
SERVICE_PORT = 8080
PAGE = b"lamp says hello\n"
# A result must come within the joiner's 40 s timeout; the margin is for the emulator.
RESULT_TIMEOUT = 75


# The start of every app script below: an activated session of its own on the system bus.
APP_SESSION = """
import dbus, sys
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
manager = dbus.Interface(bus.get_object("org.accessoryagent", "/org/accessoryagent"), "org.accessoryagent.Manager1")
path = manager.OpenSession()
session = dbus.Interface(bus.get_object("org.accessoryagent", path), "org.accessoryagent.Session1")
session.Activate()
"""

# An app that joins its lamp through D-Bus, keeps its bus connection until killed, and
# prints the HotspotLeft signal if accessoryd ends the join under it.
HOLDER_SCRIPT = APP_SESSION + """
bus.add_signal_receiver(lambda accessory, reason: print("HotspotLeft", accessory, reason, flush=True),
                        signal_name="HotspotLeft", dbus_interface="org.accessoryagent.Session1", path=path)
try:
    result = session.JoinHotspot(dbus.ObjectPath("/org/accessoryagent/accessory/" + sys.argv[1]),
                                 sys.stdin.readline().rstrip("\\n"), timeout=120)
    print(" ".join(result), flush=True)
except dbus.DBusException as e:
    print(e.get_dbus_name(), e.get_dbus_message(), flush=True)
GLib.MainLoop().run()
"""


# An app whose gateway already knew a lamp (now gone): it migrates the lamp, and once
# the administrator approved, asks to join its hotspot.
MIGRATE_AND_JOIN_SCRIPT = APP_SESSION + """
loop = GLib.MainLoop()
added = []
bus.add_signal_receiver(lambda accessory: added.append(str(accessory)), signal_name="AccessoryAdded",
                        dbus_interface="org.accessoryagent.Session1", path=path)
bus.add_signal_receiver(lambda error, message: loop.quit(), signal_name="PickerDidDismiss",
                        dbus_interface="org.accessoryagent.Session1", path=path)
session.Migrate(dbus.Array([("Ghost Lamp", "", sys.argv[1], dbus.Dictionary({"SSIDPrefix": "Lamp-"}, signature="ss"))],
                           signature="(sssa{ss})"))
loop.run()
print("added", *added, flush=True)
result = session.JoinHotspot(dbus.ObjectPath(added[0]), sys.stdin.readline().rstrip("\\n"), timeout=120)
print(" ".join(result), flush=True)
"""


class Join:
    """One `accessoryd --join-hotspot` run: passphrase on stdin, output in the evidence."""
    count = 0

    def __init__(self, lab, env, passphrase, ssid=None, ssid_hex=None):
        Join.count += 1
        self.lab = lab
        self.log_path = os.path.join(lab.evidence_dir, f"join-{Join.count}.log")
        self._log = open(self.log_path, "wb")
        target = ["--join-hotspot", ssid] if ssid is not None else ["--join-hotspot-hex", ssid_hex]
        argv = [lab.binary("accessoryd"), "--log-target=journal", "--log-level=debug", *target,
                "--interface", "wlan0", "--wpa-control-directory", WPA_CONTROL_DIR]
        lab.log(f"$ {' '.join(argv)} (passphrase on stdin)")
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=self._log,
                                        stderr=subprocess.STDOUT, env=env)
        self.process.stdin.write(passphrase + b"\n")
        self.process.stdin.flush()

    def output(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode(errors="replace")

    def result(self, timeout=RESULT_TIMEOUT):
        started = time.monotonic()
        line = self.lab.wait_until(
            lambda: next((l for l in self.output().splitlines() if l.startswith("result ")), None)
            or (None if self.process.poll() is None else f"exited {self.process.returncode}: {self.output()}"),
            timeout=timeout, what="a join result")
        return line, time.monotonic() - started

    def leave(self, timeout=60):
        """Close stdin: accessoryd leaves and exits."""
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        return self.process.wait(timeout=timeout)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


class WiFiJoinTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        cls.joins = []
        scratch = lab.scratch_dir
        cls.env = dict(os.environ, RUNTIME_DIRECTORY=os.path.join(scratch, "run"),
                       STATE_DIRECTORY=os.path.join(scratch, "state"))
        for directory in (cls.env["RUNTIME_DIRECTORY"], cls.env["STATE_DIRECTORY"]):
            os.makedirs(directory, exist_ok=True)
        # The accessory: an address, a DHCP server and a page to fetch, in its namespace.
        lab.run(["ip", "addr", "add", f"{ACCESSORY_ADDRESS}/24", "dev", "wlan2"], netns="accessory").check()
        lab._children.spawn("dnsmasq", [
            "dnsmasq", "--keep-in-foreground", "--user=root", "--port=0", "--no-resolv", "--no-hosts",
            "--interface=wlan2", "--bind-interfaces", "--dhcp-range=192.168.77.10,192.168.77.50,255.255.255.0,1h",
            f"--dhcp-leasefile={scratch}/dnsmasq.leases", "--log-dhcp",
            f"--log-facility={lab.evidence_dir}/dnsmasq.log"], netns="accessory")
        site = os.path.join(scratch, "site")
        os.makedirs(site, exist_ok=True)
        with open(os.path.join(site, "lamp.txt"), "wb") as handle:
            handle.write(PAGE)
        lab._children.spawn("http", ["python3", "-m", "http.server", str(SERVICE_PORT), "--bind", ACCESSORY_ADDRESS,
                                     "--directory", site], netns="accessory")
        # The gateway: wlan0 on its uplink under wpa_supplicant.
        cls.station = lab.start_wpa_supplicant("wlan0")
        cls.uplink = cls.station.connect("Home-Gateway", psk="home-passphrase", timeout=90)

    @classmethod
    def tearDownClass(cls):
        for join in cls.joins:
            join.stop()

    def start_join(self, passphrase, **target):
        join = Join(self.lab, self.env, passphrase, **target)
        self.joins.append(join)
        return join

    def networks(self):
        rows = self.station.command("list_networks").stdout.strip().splitlines()[1:]
        return [row.split("\t") for row in rows if "\t" in row]

    def temporary_network_ssid(self):
        """The SSID of the network accessoryd added, as wpa_supplicant gives it back; None
        until it is there. ADD_NETWORK lists the network before SET_NETWORK gives it
        an SSID, and GET_NETWORK answers FAIL in between."""
        for number, name, *_ in self.networks():
            if name != "Home-Gateway":
                value = self.station.command("get_network", number, "ssid").stdout.strip("\n")
                return value if value != "FAIL" else None
        return None

    def assert_back_on_uplink(self):
        status = self.lab.wait_until(
            lambda: (lambda s: s if s.get("wpa_state") == "COMPLETED" and s.get("ssid") == "Home-Gateway" else None)(
                self.station.status()),
            timeout=90, what="wlan0 back on Home-Gateway")
        self.assertEqual(status.get("bssid"), self.uplink.get("bssid"))
        self.assertEqual([row[1] for row in self.networks()], ["Home-Gateway"], "the temporary network is gone")

    def test_a_uplink_first(self):
        self.assertEqual(self.uplink.get("ssid"), "Home-Gateway")

    def test_b_join_reach_service_leave(self):
        join = self.start_join(PASSPHRASE, ssid="Lamp-Setup")
        line, _ = join.result()
        self.assertTrue(line.startswith("result joined interface=wlan0 address=192.168.77."), join.output())
        address = line.rsplit("address=", 1)[1]
        shown = self.lab.run(["ip", "-4", "addr", "show", "dev", "wlan0"]).stdout
        self.assertIn(f"inet {address}/24", shown)
        self.assertEqual(self.station.status().get("ssid"), "Lamp-Setup")
        # A TCP connection to the accessory's service, across the virtual air.
        with socket.create_connection((ACCESSORY_ADDRESS, SERVICE_PORT), timeout=20) as connection:
            self.assertEqual(connection.getsockname()[0], address)
            connection.sendall(b"GET /lamp.txt HTTP/1.0\r\nHost: lamp\r\n\r\n")
            reply = b""
            while chunk := connection.recv(4096):
                reply += chunk
        self.assertTrue(reply.startswith(b"HTTP/1.0 200"), reply[:80])
        self.assertTrue(reply.endswith(PAGE))

        self.assertEqual(join.leave(), 0, join.output())
        self.assertIn("left interface=wlan0", join.output())
        self.assert_back_on_uplink()
        self.assertNotIn(f"inet {address}/", self.lab.run(["ip", "-4", "addr", "show", "dev", "wlan0"]).stdout,
                         "the leased address is removed")
        self.assertEqual(os.listdir(self.env["STATE_DIRECTORY"]), [], "no join record is left")

    def test_c_wrong_passphrase(self):
        join = self.start_join(b"not the lamp passphrase", ssid="Lamp-Setup")
        line, elapsed = join.result()
        self.assertEqual(line, "result wrong-key", join.output())
        self.assertLess(elapsed, RESULT_TIMEOUT)
        self.assertEqual(join.process.wait(timeout=30), 1)
        self.assert_back_on_uplink()

    def test_d_absent_ssid(self):
        join = self.start_join(b"some passphrase", ssid="Absent-Accessory")
        line, _ = join.result()
        self.assertEqual(line, "result network-not-found", join.output())
        self.assertEqual(join.process.wait(timeout=30), 1)
        self.assert_back_on_uplink()

    def test_e_hostile_ssids_reach_wpa_supplicant_intact(self):
        for ssid in [b'say "hi"', b"back\\slash", b"new\nline", b"\xff\xfe not utf8", b'\\"q\n']:
            with self.subTest(ssid=ssid):
                join = self.start_join(b"a passphrase", ssid_hex=ssid.hex())
                value = self.lab.wait_until(self.temporary_network_ssid, timeout=30,
                                            what="the temporary network's SSID")
                stored = value[1:-1].encode() if value.startswith('"') else bytes.fromhex(value)
                self.assertEqual(stored, ssid, value)
                join.leave()
                self.assert_back_on_uplink()

    def start_daemon_for_apps(self, config_name, apps, *options):
        """accessoryd serving `apps` ((name, user) pairs, each allowed Lamp-* hotspots),
        joining on wlan0 through the lab's wpa_supplicant; returned once ready."""
        lab = self.lab
        manifests = lab.write_app_manifests({
            name: f"[App]\nName={name}\nUser={user}\nSupports=Wi-Fi\n\n[Wi-Fi]\nSSIDPrefixes=Lamp-\n"
            for name, user in apps})
        config = lab.write_file(config_name, "[Wi-Fi]\nScanInterval=2\nFrequencies=2437\nJoinInterface=wlan0\n"
                                f"WPASupplicantDirectory={WPA_CONTROL_DIR}\n")
        daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--apps", manifests,
                                   "--log-target=journal", *options], env=self.env)
        daemon.wait_ready(timeout=90)
        return daemon

    def test_f_sigkill_during_join_then_restart_restores(self):
        join = self.start_join(PASSPHRASE, ssid="Lamp-Setup")
        line, _ = join.result()
        self.assertTrue(line.startswith("result joined"), join.output())
        join.kill()
        self.assertEqual(self.station.status().get("ssid"), "Lamp-Setup", "still on the hotspot after SIGKILL")
        self.assertEqual(len(os.listdir(self.env["STATE_DIRECTORY"])), 1, "the join record is there")

        config = self.lab.write_file("accessoryd.conf", "[Daemon]\nLogLevel=debug\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"],
                                       env=self.env)
        daemon.wait_ready(timeout=90)
        self.assert_back_on_uplink()
        self.assertEqual(os.listdir(self.env["STATE_DIRECTORY"]), [], "the record is consumed")
        self.lab.wait_for_journal(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="hotspot-recovered")
        pid_file = os.path.join(self.env["RUNTIME_DIRECTORY"], "udhcpc-wlan0.pid")
        if os.path.exists(pid_file):
            with open(pid_file) as handle:
                pid = int(handle.read().strip() or 0)
            self.lab.wait_until(lambda: not os.path.exists(f"/proc/{pid}"), timeout=30,
                                what="the orphaned udhcpc to stop")
        self.assertEqual(daemon.stop(), 0)

    def test_g_an_app_joins_through_accessoryd_reaches_its_accessory_and_leaves(self):
        """The same, as an app does it: the example app (as nobody, no capabilities) asks for
        the lamp with a picker, the administrator approves, the app asks accessoryd to join
        (D-Bus JoinHotspot), fetches the lamp's page over TCP, and leaves."""
        lab = self.lab
        daemon = self.start_daemon_for_apps("apps.conf", [("lamp-app", "nobody"), ("other-app", "daemon")])
        as_nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        url = f"http://{ACCESSORY_ADDRESS}:{SERVICE_PORT}/lamp.txt"

        def example(*arguments, passphrase):
            lab.log("$ (as nobody) accessory-example " + " ".join(arguments))
            app = subprocess.Popen(as_nobody + [lab.binary("accessory-example"), *arguments], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            app.stdin.write(passphrase + b"\n")
            app.stdin.flush()
            return app

        app = example("--wifi-ssid-prefix", "Lamp-", "--join", "--fetch", url, passphrase=PASSPHRASE)
        try:
            def candidate():
                listing = lab.run([lab.binary("accessoryctl"), "requests"]).stdout
                found = re.search(r"^request (\d+):", listing, re.M)
                return found.group(1) if found and "Lamp-Setup" in listing else None
            request = lab.wait_until(candidate, timeout=90, what="the lamp's hotspot as a candidate")
            lab.accessoryctl("approve", request, "1")
            output, _ = app.communicate(timeout=RESULT_TIMEOUT + 30)
        finally:
            app.kill()
        output = output.decode(errors="replace")
        lab.log(output)
        self.assertEqual(app.returncode, 0, output)
        self.assertRegex(output, r"hotspot: joined interface=wlan0 address=192\.168\.77\.\d+")
        self.assertIn("fetched: " + PAGE.decode().strip(), output)
        self.assertIn("left the hotspot", output)
        self.assert_back_on_uplink()

        # A wrong passphrase: the typed result, and the uplink back.
        app = example("--join", passphrase=b"not the lamp passphrase")
        output = app.communicate(timeout=RESULT_TIMEOUT + 30)[0].decode(errors="replace")
        lab.log(output)
        self.assertEqual(app.returncode, 1, output)
        self.assertIn("hotspot: wrong-key", output)
        self.assert_back_on_uplink()

        # Another app cannot join the lamp app's accessory.
        accessory = re.search(r"^([0-9a-f]{16})\s+lamp-app", lab.run([lab.binary("accessoryctl"), "accessories"]).stdout,
                              re.M).group(1)
        script = lab.write_file("other.py", (
            "import dbus\nbus = dbus.SystemBus()\n"
            "m = dbus.Interface(bus.get_object('org.accessoryagent', '/org/accessoryagent'), 'org.accessoryagent.Manager1')\n"
            "s = dbus.Interface(bus.get_object('org.accessoryagent', m.OpenSession()), 'org.accessoryagent.Session1')\n"
            "s.Activate()\n"
            "try:\n    s.JoinHotspot(dbus.ObjectPath('/org/accessoryagent/accessory/" + accessory + "'), 'x' * 12)\n"
            "except dbus.DBusException as e:\n    print(e.get_dbus_name(), e.get_dbus_message())\n"))
        other = lab.run(["setpriv", "--reuid=daemon", "--regid=daemon", "--clear-groups", "/usr/bin/python3", script])
        self.assertEqual(other.stdout.strip(), f"org.accessoryagent.Error.invalidRequest unknown accessory {accessory}",
                         other.stderr)
        self.assertEqual(daemon.stop(), 0)

    def test_h_the_app_leaving_the_bus_losing_the_accessory_or_the_link_ends_the_join(self):
        """An app that joined and then vanishes from the bus, whose accessory the
        administrator removes, or whose accessory's hotspot goes away, does not keep
        the gateway off its uplink. Uses the lamp
        app's grant from test_g, which the state directory keeps across restarts."""
        lab = self.lab
        daemon = self.start_daemon_for_apps("leave.conf", [("lamp-app", "nobody")], "--log-level=debug")
        listing = lab.accessoryctl("accessories")
        found = re.search(r"^([0-9a-f]{16})\s+lamp-app", listing, re.M)
        self.assertIsNotNone(found, "test_g left the lamp app's grant: " + listing)

        def wifi_events():
            """This daemon's Wi-Fi events, in the journal's order."""
            return [e.get("WIFI_EVENT") for e in lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", _PID=daemon.pid)
                    if e.get("WIFI_EVENT") in ("scan-started", "hotspot-join-started", "hotspot-left")]
        # No request is open: the granted lamp alone keeps wlan0 scanned, for its presence.
        lab.wait_until(lambda: "scan-started" in wifi_events(), timeout=30, what="a scan for the granted lamp")
        accessory = found.group(1)
        script = lab.write_file("holder.py", HOLDER_SCRIPT)

        def reasons():
            return [e.get("WIFI_LEAVE_REASON") for e in lab.journal_entries(MESSAGE_ID=HOTSPOT_JOIN_ENDED, APP="lamp-app")]
        earlier = len(reasons())  # test_g's app left its hotspot too

        def join(passphrase):
            """The app, as nobody: joins, prints the result, holds its bus connection."""
            lab.log(f"$ (as nobody) python3 holder.py {accessory}")
            app = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                    "/usr/bin/python3", script, accessory],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            app.stdin.write(passphrase + "\n")
            app.stdin.flush()
            return app, app.stdout.readline().strip()

        # Checked before anything is sent: wpa_supplicant never hears of a 7-character passphrase.
        app, result = join("short12")
        app.kill()
        self.assertIn("invalidRequest", result)
        self.assertEqual([row[1] for row in self.networks()], ["Home-Gateway"])

        # The app dies with the join held: the bus tells accessoryd, which restores the uplink.
        app, result = join(PASSPHRASE.decode())
        self.assertRegex(result, r"^joined wlan0 192\.168\.77\.\d+$")
        self.assertEqual(self.station.status().get("ssid"), "Lamp-Setup")
        app.kill()
        app.wait(timeout=30)
        self.assertEqual(lab.wait_until(lambda: reasons()[earlier:] or None, timeout=60, what="the join to end"),
                         ["the session ended: its caller left the bus"])
        self.assert_back_on_uplink()

        # The lamp's hotspot goes away under the join: once the grace period is over,
        # accessoryd ends the join, tells the app, and wlan0 is back on the uplink.
        app, result = join(PASSPHRASE.decode())
        lamp = lab.hotspot("wlan2")
        try:
            self.assertRegex(result, r"^joined wlan0 ")
            self.assertIn("OK", lamp.command("disable").stdout)
            told = app.stdout.readline().strip()
            self.assertTrue(told.startswith(f"HotspotLeft /org/accessoryagent/accessory/{accessory} "
                                            "the link dropped"), told)
            lost = lab.wait_until(lambda: reasons()[earlier + 1:] or None, timeout=30, what="the join to end")
            self.assertEqual(len(lost), 1, lost)
            self.assertRegex(lost[0], r"^the link to the hotspot was lost: the link dropped .*within 15 s$")
            self.assert_back_on_uplink()
        finally:
            app.kill()
            lamp.command("enable")
        lamp.wait_enabled()

        # The administrator removes the accessory while the app holds a join.
        app, result = join(PASSPHRASE.decode())
        try:
            self.assertRegex(result, r"^joined wlan0 ")
            lab.accessoryctl("remove", accessory)
            self.assertEqual(lab.wait_until(lambda: reasons()[earlier + 2:] or None, timeout=60, what="the join to end"),
                             ["the accessory was removed"])
            self.assert_back_on_uplink()
        finally:
            app.kill()
        # While a join held wlan0, accessoryd started no scan on it (three joins were made).
        self.assertEqual(wifi_events().count("hotspot-join-started"), 3, wifi_events())
        held = False
        for event in wifi_events():
            held = {"hotspot-join-started": True, "hotspot-left": False}.get(event, held)
            self.assertFalse(held and event == "scan-started", wifi_events())
        self.assertEqual(daemon.stop(), 0)

    def test_i_an_absent_hotspot_through_dbus_is_not_found_and_the_uplink_stays(self):
        """test_d through an app: JoinHotspot for a hotspot nobody serves any more gives
        network-not-found within the joiner's bound, and wlan0 is back on its uplink.
        The app gets the accessory by migration, as for one the gateway knew before."""
        lab = self.lab
        daemon = self.start_daemon_for_apps("ghost.conf", [("lamp-app", "nobody")])
        script = lab.write_file("ghost.py", MIGRATE_AND_JOIN_SCRIPT)
        lab.log("$ (as nobody) python3 ghost.py Lamp-Ghost")
        app = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                "/usr/bin/python3", script, "Lamp-Ghost"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            app.stdin.write(PASSPHRASE.decode() + "\n")
            app.stdin.flush()

            def migration():
                found = re.search(r"^request (\d+): lamp-app migrates", lab.accessoryctl("requests"), re.M)
                return found.group(1) if found else None
            lab.accessoryctl("approve", lab.wait_until(migration, timeout=30, what="the migration request"), "0")
            output, _ = app.communicate(timeout=RESULT_TIMEOUT + 30)
        finally:
            app.kill()
        lab.log(output)
        lines = output.splitlines()
        self.assertRegex(lines[0], r"^added /org/accessoryagent/accessory/[0-9a-f]{16}$", output)
        self.assertEqual(lines[1:], ["network-not-found wlan0 "], output)
        self.assert_back_on_uplink()
        result = lab.wait_for_journal(MESSAGE_ID=HOTSPOT_JOIN_RESULT, APP="lamp-app", WIFI_JOIN_RESULT="network-not-found")
        self.assertEqual(result.get("ACCESSORY_ID"), lines[0].rsplit("/", 1)[1])
        lab.accessoryctl("remove", lines[0].rsplit("/", 1)[1])
        self.assertEqual(daemon.stop(), 0)

    def test_z_passphrase_never_in_the_journal_or_output(self):
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd")
        self.assertTrue(entries)
        text = json.dumps(entries)
        for secret in (PASSPHRASE, b"not the lamp passphrase"):
            for form in (secret.decode(), secret.hex(), secret.decode().replace('"', '\\"')):
                self.assertNotIn(form, text)
                for join in self.joins:
                    self.assertNotIn(form, join.output())
        # The joins did log their results, with MESSAGE-like fields.
        results = [e.get("WIFI_JOIN_RESULT") for e in
                   self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="hotspot-join-result")]
        self.assertIn("wrong-key", results)
        self.assertIn("network-not-found", results)
