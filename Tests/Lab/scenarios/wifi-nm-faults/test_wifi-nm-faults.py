"""Faults in the middle of a join through NetworkManager (issue 21): NetworkManager
restarted, and accessoryd killed (SIGKILL). The hotspot here gives no address, so the
join is still under way when the fault comes. Each ends with a typed result or, for the
kill, with the next start finding accessoryd's leftover profile by its recorded uuid and
deleting it; either way the uplink connection is active again and no profile is left."""

import os
import signal
import subprocess

from labkit import LabTestCase
from labkit.networkmanager import NetworkManager

PASSPHRASE = b'lamp pass "quoted" phrase'
RESULT_TIMEOUT = 120


class NetworkManagerFaultTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        scratch = lab.scratch_dir
        cls.env = dict(os.environ, RUNTIME_DIRECTORY=os.path.join(scratch, "run"),
                       STATE_DIRECTORY=os.path.join(scratch, "state"))
        for directory in (cls.env["RUNTIME_DIRECTORY"], cls.env["STATE_DIRECTORY"]):
            os.makedirs(directory, exist_ok=True)
        cls.nm = NetworkManager(lab)
        cls.nm.start_supplicant()
        cls.nm.start()
        cls.nm.wait_for_uplink(timeout=300, kick=True)

    def start_join(self, name):
        log_path = os.path.join(self.lab.evidence_dir, f"{name}.log")
        argv = [self.lab.binary("accessoryd"), "--log-target=journal", "--log-level=debug", "--join-hotspot",
                "Lamp-Setup", "--interface", "wlan0"]
        self.lab.log(f"$ {' '.join(argv)} (passphrase on stdin)")
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT,
                                   env=self.env)
        process.stdin.write(PASSPHRASE + b"\n")
        process.stdin.flush()
        self.addCleanup(lambda: process.poll() is None and (process.kill(), process.wait(timeout=30)))
        return process, lambda: open(log_path, "rb").read().decode(errors="replace")

    def wait_join_under_way(self):
        """NetworkManager activating accessoryd's profile on wlan0 (it waits for DHCP)."""
        self.lab.wait_until(lambda: self.nm.device()[1] == "accessoryd-join-wlan0", timeout=RESULT_TIMEOUT,
                            what="accessoryd's profile activating on wlan0")
        self.assertEqual(len(os.listdir(self.env["STATE_DIRECTORY"])), 1, "the join record is there")

    def assert_nothing_left(self):
        # The uplink back for the next test, kicked as the setup does: under emulation on a
        # loaded host the virtual AP can miss the handshake after the uplink's reactivation,
        # and NetworkManager then blocks the profile for want of secrets (not accessoryd's).
        self.nm.wait_for_uplink(timeout=120, kick=True)
        self.assertEqual(self.nm.profiles_named("accessoryd-join-"), [], "no profile of accessoryd's is left")
        self.assertEqual(os.listdir(self.env["STATE_DIRECTORY"]), [], "no join record is left")

    def test_a_networkmanager_restarted_during_a_join(self):
        process, output = self.start_join("join-nm-restart")
        self.wait_join_under_way()
        self.nm.stop()
        self.nm.start()
        line = self.lab.wait_until(lambda: next((l for l in output().splitlines() if l.startswith("result ")), None),
                                   timeout=RESULT_TIMEOUT, what="a join result")
        # Stopping, NetworkManager first unmanages wlan0 (the device's reason) and then leaves
        # the bus; whichever accessoryd sees first ends the join.
        self.assertIn(line, ["result failed reason=NetworkManager stopped during the join",
                             "result failed reason=NetworkManager stopped managing the interface"], output())
        self.assertEqual(process.wait(timeout=180), 1, output())
        self.assertIn("left interface=wlan0", output())
        self.assert_nothing_left()

    def test_b_accessoryd_killed_during_a_join(self):
        process, output = self.start_join("join-killed")
        self.wait_join_under_way()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        self.assertEqual(self.nm.profiles_named("accessoryd-join-"), ["accessoryd-join-wlan0"], "left behind by the kill")
        # The next start (here the daemon, as systemd would restart it) removes it.
        config = self.lab.write_file("accessoryd.conf", "[Daemon]\nLogLevel=debug\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"],
                                       env=self.env)
        daemon.wait_ready(timeout=120)
        self.assert_nothing_left()
        self.lab.wait_for_journal(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="hotspot-recovered")
        self.assertEqual(daemon.stop(), 0)
