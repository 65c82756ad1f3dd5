"""The package's polkit rule (packaging/polkit/50-accessoryd-networkmanager.rules) with
the real polkitd and NetworkManager asking it, as on Raspberry Pi OS: a join through
NetworkManager by user accessoryd (not root) succeeds and leaves nothing behind, and
NetworkManager asked polkit for exactly network-control and settings.modify.system;
without the rule the join fails naming the missing permission; another user gains
nothing from it (issue 21)."""

import os
import pwd
import shutil
import subprocess

from labkit import LabTestCase
from labkit.networkmanager import NetworkManager
from labkit.wifi import HandshakeWitness

PASSPHRASE = b'lamp pass "quoted" phrase'
ACCESSORY_ADDRESS = "192.168.77.1"
RESULT_TIMEOUT = 120
RULES = "/usr/share/polkit-1/rules.d"
RULE = "50-accessoryd-networkmanager.rules"
# Says, in polkitd's output, every NetworkManager action it is asked about, and for whom.
LOG_RULE = """polkit.addRule(function(action, subject) {
    if (action.id.indexOf("org.freedesktop.NetworkManager.") == 0) {
        polkit.log("lab-check " + action.id + " user=" + subject.user);
    }
});
"""


class PolkitRuleTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        scratch = lab.scratch_dir
        # The package's user (the VM's root is a copy-on-write of the host's).
        # (useradd cannot write /etc/shadow on the VM's overlay; the entries alone do.)
        if subprocess.run(["getent", "passwd", "accessoryd"], capture_output=True).returncode != 0:
            with open("/etc/group", "a") as handle:
                handle.write("accessoryd:x:64990:\n")
            with open("/etc/passwd", "a") as handle:
                handle.write("accessoryd:x:64990:64990:accessoryd:/nonexistent:/usr/sbin/nologin\n")
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
        cls.repo = repo
        shutil.copy(os.path.join(repo, "packaging", "polkit", RULE), os.path.join(RULES, RULE))
        with open(os.path.join(RULES, "00-lab-log.rules"), "w") as handle:
            handle.write(LOG_RULE)
        cls.polkit_log = os.path.join(lab.evidence_dir, "polkitd.log")
        lab._children.spawn("polkitd", ["/usr/lib/polkit-1/polkitd"], stdout=open(cls.polkit_log, "ab"))
        lab.run(["ip", "addr", "add", f"{ACCESSORY_ADDRESS}/24", "dev", "wlan2"], netns="accessory").check()
        lab._children.spawn("dnsmasq", [
            "dnsmasq", "--keep-in-foreground", "--user=root", "--port=0", "--no-resolv", "--no-hosts",
            "--interface=wlan2", "--bind-interfaces", "--dhcp-range=192.168.77.10,192.168.77.50,255.255.255.0,1h",
            f"--dhcp-leasefile={scratch}/dnsmasq.leases"], netns="accessory")
        cls.nm = NetworkManager(lab, polkit=True)
        lab.wait_until(lambda: cls.nm.bus_has("org.freedesktop.PolicyKit1"), timeout=60, what="polkitd on the bus")
        cls.nm.start_supplicant()
        cls.nm.start()
        cls.nm.wait_for_uplink(timeout=300, kick=True)

    def join_as(self, user, name):
        """A join run as `user` with the state and runtime directories it owns; returns (status, output)."""
        scratch = os.path.join(self.lab.scratch_dir, name)
        entry = pwd.getpwnam(user)
        env = dict(os.environ, RUNTIME_DIRECTORY=os.path.join(scratch, "run"), STATE_DIRECTORY=os.path.join(scratch, "state"))
        for directory in (scratch, env["RUNTIME_DIRECTORY"], env["STATE_DIRECTORY"]):
            os.makedirs(directory, exist_ok=True)
            os.chown(directory, entry.pw_uid, entry.pw_gid)
        os.chmod(scratch, 0o755)
        log_path = os.path.join(self.lab.evidence_dir, f"{name}.log")
        argv = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--inh-caps=-all",
                self.lab.binary("accessoryd"), "--log-target=journal", "--log-level=debug", "--join-hotspot", "Lamp-Setup",
                "--interface", "wlan0"]
        self.lab.log(f"$ {' '.join(argv)} (passphrase on stdin)")
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT, env=env)
        process.stdin.write(PASSPHRASE + b"\n")
        process.stdin.flush()
        output = lambda: open(log_path, "rb").read().decode(errors="replace")
        line = self.lab.wait_until(
            lambda: next((l for l in output().splitlines() if l.startswith("result ")), None)
            or (None if process.poll() is None else f"exited {process.returncode}"),
            timeout=RESULT_TIMEOUT, what="a join result")
        if line.startswith("result joined"):
            process.stdin.close()
        status = process.wait(timeout=180)
        return status, line, output(), env["STATE_DIRECTORY"]

    def rule_loads(self):
        with open(self.polkit_log, errors="replace") as handle:
            return handle.read().count(f"Loading rules from directory {RULES}")

    def checked_actions(self, user):
        with open(self.polkit_log, errors="replace") as handle:
            return sorted({line.split("lab-check ", 1)[1].split(" ")[0] for line in handle
                           if "lab-check " in line and line.rstrip().endswith(f"user={user}")})

    def assert_nothing_left(self, state):
        # The uplink back for the next test, kicked as the setup does: under emulation on a
        # loaded host the virtual AP can miss the handshake after the uplink's reactivation,
        # and NetworkManager then blocks the profile for want of secrets (not accessoryd's).
        self.nm.wait_for_uplink(timeout=120, kick=True)
        self.assertEqual(self.nm.profiles_named("accessoryd-join-"), [])
        self.assertEqual(os.listdir(state), [])

    def test_a_accessoryd_may_join(self):
        witness = HandshakeWitness(self.lab.evidence_dir)
        status, line, output, state = self.join_as("accessoryd", "as-accessoryd")
        if line.startswith("result wrong-key") and not witness.key_found_wrong():
            # A handshake lost to the loaded host, not a wrong passphrase (labkit.wifi.HandshakeWitness): once more.
            self.lab.log(f"the join came back wrong-key with no invalid MIC at the hotspot; joining again:\n{output}")
            self.assert_nothing_left(state)
            status, line, output, state = self.join_as("accessoryd", "as-accessoryd-again")
        self.assertTrue(line.startswith("result joined interface=wlan0 address=192.168.77."), output)
        self.assertEqual(status, 0, output)
        self.assertIn("left interface=wlan0", output)
        self.assert_nothing_left(state)
        self.assertEqual(self.checked_actions("accessoryd"), [
            "org.freedesktop.NetworkManager.network-control",
            "org.freedesktop.NetworkManager.settings.modify.system",
        ], "the actions NetworkManager asked polkit about for the join, its leave and the uplink")

    def test_b_another_user_gains_nothing(self):
        status, line, output, state = self.join_as("nobody", "as-nobody")
        self.assertIn("polkit does not grant this user the permission", line, output)
        self.assertEqual(status, 1, output)
        self.assert_nothing_left(state)

    def test_c_without_the_rule_the_join_names_the_permission(self):
        loads = self.rule_loads()
        os.remove(os.path.join(RULES, RULE))
        try:
            # polkitd reloads its rules when the directory changes, and says so.
            self.lab.wait_until(lambda: self.rule_loads() > loads, timeout=30, what="polkitd reloading its rules")
            status, line, output, state = self.join_as("accessoryd", "without-rule")
            self.assertIn("NetworkManager refused AddAndActivateConnection2: polkit does not grant this user the permission "
                          "org.freedesktop.NetworkManager.network-control and "
                          "org.freedesktop.NetworkManager.settings.modify.system", line, output)
            self.assertNotIn("lamp pass", output)
            self.assertEqual(status, 1, output)
            self.assert_nothing_left(state)
        finally:
            shutil.copy(os.path.join(self.repo, "packaging", "polkit", RULE), os.path.join(RULES, RULE))
