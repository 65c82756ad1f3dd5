"""wpa_supplicant is killed (SIGKILL) in the middle of a hotspot join and restarted, as
systemd's Restart= would: the join ends with a typed result, accessoryd sends nothing to
the new wpa_supplicant (its network ids are not the old one's), leaves no join record,
and wlan0 is back on its uplink from wpa_supplicant's own configuration (issue 12,
point 5)."""

import os
import signal
import subprocess
import time

from labkit import LabTestCase
from labkit.wifi import WPA_CONTROL_DIR

PASSPHRASE = b'lamp pass "quoted" phrase'
PID_FILE = "/run/lab/wpa_supplicant-wlan0.pid"
# The joiner's own bound is 40 s; a killed wpa_supplicant is noticed within its 5 s
# liveness check. The margin is for the emulator.
RESULT_TIMEOUT = 75
STATION_CONFIG = """network={
    ssid="Home-Gateway"
    psk="home-passphrase"
    scan_ssid=1
}
"""


class SupplicantRestartTests(LabTestCase):
    starts = 0

    @classmethod
    def setUpClass(cls):
        lab = cls.lab
        scratch = lab.scratch_dir
        cls.env = dict(os.environ, RUNTIME_DIRECTORY=os.path.join(scratch, "run"),
                       STATE_DIRECTORY=os.path.join(scratch, "state"))
        for directory in (cls.env["RUNTIME_DIRECTORY"], cls.env["STATE_DIRECTORY"]):
            os.makedirs(directory, exist_ok=True)
        cls.config = lab.write_file("wpa_supplicant-wlan0.conf", STATION_CONFIG)
        cls.start_station()

    @classmethod
    def start_station(cls):
        """wpa_supplicant on wlan0 from its configuration file; returns once it is on the uplink."""
        lab = cls.lab
        cls.starts += 1
        os.makedirs(WPA_CONTROL_DIR, exist_ok=True)
        lab.run(["wpa_supplicant", "-B", "-t", "-dd", "-D", "nl80211", "-i", "wlan0", "-c", cls.config,
                 "-C", WPA_CONTROL_DIR, "-P", PID_FILE,
                 "-f", os.path.join(lab.evidence_dir, f"wpa_supplicant-wlan0-{cls.starts}.log")], timeout=30).check()
        lab._children.adopt_pid_file(f"wpa_supplicant wlan0 ({cls.starts})", PID_FILE)
        return cls.wait_for_uplink()

    @classmethod
    def wpa(cls, *args):
        return cls.lab.run(["wpa_cli", "-p", WPA_CONTROL_DIR, "-i", "wlan0", *args], timeout=10)

    @classmethod
    def status(cls):
        return dict(line.split("=", 1) for line in cls.wpa("status").stdout.splitlines() if "=" in line)

    @classmethod
    def wait_for_uplink(cls):
        def on_uplink():
            status = cls.status()
            return status if status.get("wpa_state") == "COMPLETED" and status.get("ssid") == "Home-Gateway" else None
        return cls.lab.wait_until(on_uplink, timeout=120, what="wlan0 on Home-Gateway")

    def test_killed_during_a_join_then_restarted(self):
        lab = self.lab
        log_path = os.path.join(lab.evidence_dir, "join.log")
        argv = [lab.binary("accessoryd"), "--log-target=journal", "--log-level=debug", "--join-hotspot", "Lamp-Setup",
                "--interface", "wlan0", "--wpa-control-directory", WPA_CONTROL_DIR]
        lab.log(f"$ {' '.join(argv)} (passphrase on stdin)")
        with open(log_path, "wb") as log:
            join = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        try:
            join.stdin.write(PASSPHRASE + b"\n")
            join.stdin.flush()

            def output():
                with open(log_path, "rb") as handle:
                    return handle.read().decode(errors="replace")

            # On the hotspot, waiting for an address nobody gives: the join is under way.
            lab.wait_until(lambda: self.status().get("ssid") == "Lamp-Setup" and self.status().get("wpa_state") == "COMPLETED",
                           timeout=RESULT_TIMEOUT, what="wlan0 associated with Lamp-Setup")
            self.assertNotIn("result ", output())
            self.assertEqual(len(os.listdir(self.env["STATE_DIRECTORY"])), 1, "the join record is there")

            with open(PID_FILE) as handle:
                pid = int(handle.read().strip())
            lab.log(f"kill -KILL {pid} (wpa_supplicant)")
            os.kill(pid, signal.SIGKILL)
            lab.wait_until(lambda: not os.path.exists(f"/proc/{pid}"), timeout=30, what="wpa_supplicant gone")

            line = lab.wait_until(
                lambda: next((l for l in output().splitlines() if l.startswith("result ")), None),
                timeout=RESULT_TIMEOUT, what="a join result")
            self.assertEqual(line, "result failed reason=wpa_supplicant went away", output())
            self.assertEqual(join.wait(timeout=60), 1, output())
            self.assertIn("left interface=wlan0", output())
            self.assertEqual(os.listdir(self.env["STATE_DIRECTORY"]), [], "no join record is left")
        finally:
            if join.poll() is None:
                join.kill()
                join.wait(timeout=30)

        # Restarted: its own configuration brings the uplink back; nothing of the join is in it.
        self.start_station()
        networks = [row.split("\t")[1] for row in self.wpa("list_networks").stdout.strip().splitlines()[1:] if "\t" in row]
        self.assertEqual(networks, ["Home-Gateway"])

        gone = lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="hotspot-supplicant-gone")
        self.assertTrue(gone, "accessoryd said that wpa_supplicant went away")
        results = [e.get("WIFI_JOIN_RESULT") for e in
                   lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", WIFI_EVENT="hotspot-join-result")]
        self.assertEqual(results, ["failed reason=wpa_supplicant went away"])
