"""accessoryd and bluetoothd on the same controller: when bluetoothd's discovery already has hci0
scanning, accessoryd listens to the reports instead of fighting (and says so once); when
bluetoothd starts discovering over accessoryd's scan, accessoryd listens too; both hear the
advertiser throughout, and bluetoothd keeps working (`bluetoothctl devices` lists it).
When bluetoothd's discovery ends, accessoryd scans again itself."""

import os
import re
import subprocess
import time

from labkit import LabTestCase
from labkit.message_ids import LISTENING, SCAN_STARTED


ADV_DATA = bytes.fromhex("020106 03030f18 05ffffffc0e0 0709 4c6162546167".replace(" ", ""))
LINE = re.compile(r"^bluetooth (?P<controller>\S+) (?P<device>\S+) ")


class Bluetoothctl:
    """An interactive bluetoothctl fed on stdin, its output kept as evidence."""

    def __init__(self, lab, name):
        self.log_path = os.path.join(lab.evidence_dir, f"{name}.log")
        self.output = open(self.log_path, "wb")
        self.process = subprocess.Popen(["bluetoothctl"], stdin=subprocess.PIPE, stdout=self.output,
                                        stderr=subprocess.STDOUT)

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def text(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode(errors="replace")

    def close(self):
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.output.close()


class CoexistenceTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.scanner = controllers["hci0"].address
        self.advertiser = controllers["hci1"].address
        self.bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False,
                                                name="bluetoothd")
        self.lab.wait_until(lambda: self.advertiser in self.lab.run(["bluetoothctl", "list"]).stdout,
                            timeout=30, what="bluetoothd to know the controllers")
        # bluetoothd lists a controller before it powers it (and the previous test's bluetoothd
        # powered both off as it exited): advertising on a controller still down fails.
        for address in (self.scanner, self.advertiser):
            self.lab.wait_until(lambda: "Powered: yes" in self.lab.run(["bluetoothctl", "show", address]).stdout,
                                timeout=30, what=f"bluetoothd to power {address}")
        # bluetoothd powering the controllers may stop raw-HCI advertising: set it up again.
        self.lab.advertise("hci1", ADV_DATA)
        self.ctl = Bluetoothctl(self.lab, f"bluetoothctl-{self.id().rsplit('.', 1)[-1]}")
        self.addCleanup(self.ctl.close)
        self.ctl.send(f"select {self.scanner}")

    def tearDown(self):
        self.bluetoothd.stop()

    def start_accessoryd(self):
        # Debug: taking the scan back after bluetoothd's discovery is logged at debug (once at info).
        config = self.lab.write_file("accessoryd.conf",
                                     "[Daemon]\nLogLevel=debug\n[Bluetooth]\nControllers=hci0\nScanWatchdog=0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                        "--log-target=journal", "--monitor"])
        daemon.wait_ready(timeout=60)
        return daemon

    def start_discovery(self):
        self.ctl.send("scan on")
        self.lab.wait_until(lambda: "Discovery started" in self.ctl.text() or "Discovering: yes" in self.ctl.text(),
                            timeout=30, what="bluetoothd's discovery to start")
        time.sleep(1)

    def started_entries(self):
        return self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0")

    def listening_entries(self):
        return self.lab.journal_entries(MESSAGE_ID=LISTENING, BLUETOOTH_CONTROLLER="hci0")

    def accessoryd_lines(self, daemon):
        return [line for line in daemon.output().splitlines()
                if (m := LINE.match(line)) and m["controller"] == "hci0" and m["device"].startswith(self.advertiser)]

    def wait_heard(self, daemon, after=0, what="accessoryd to hear the advertiser"):
        def heard():
            if len(self.accessoryd_lines(daemon)) > after:
                return True
            self.lab.readvertise("hci1")
            time.sleep(0.5)
            return False
        self.lab.wait_until(heard, timeout=40, what=what)

    def wait_bluetoothd_lists_advertiser(self):
        def listed():
            if self.advertiser in self.lab.run(["bluetoothctl", "devices"]).stdout:
                return True
            self.lab.readvertise("hci1")
            time.sleep(0.5)
            return False
        self.lab.wait_until(listed, timeout=40, what="bluetoothctl devices to list the advertiser")

    def test_listens_when_bluetoothd_already_scans(self):
        self.start_discovery()
        earlier = len(self.listening_entries())  # from other tests of this scenario
        started = len(self.started_entries())
        daemon = self.start_accessoryd()
        self.lab.wait_until(lambda: len(self.listening_entries()) > earlier, timeout=30,
                            what="accessoryd to say it listens")
        entry = self.listening_entries()[earlier]
        # Refused (Command Disallowed), or the kernel's discovery cycle turned scanning on again
        # right over accessoryd's: either way accessoryd listens rather than fights.
        self.assertRegex(entry.get("BLUETOOTH_REASON", ""),
                         r"(?i)refused 0x200[BC] with Command Disallowed|another process turned scanning on")
        self.wait_heard(daemon)
        self.wait_bluetoothd_lists_advertiser()
        self.assertIn("LabTag", self.lab.run(["bluetoothctl", "info", self.advertiser]).stdout)

        # bluetoothd's discovery ends (the kernel ends an LE discovery after 10.24 s by itself, or
        # "scan off"): accessoryd scans itself again and keeps hearing.
        self.ctl.send("scan off")
        self.lab.wait_until(lambda: len(self.started_entries()) > started, timeout=40,
                            what="accessoryd to scan itself once bluetoothd's discovery ended")
        self.wait_heard(daemon, after=len(self.accessoryd_lines(daemon)),
                        what="accessoryd to hear the advertiser after taking the scan up")
        self.assertEqual(len(self.listening_entries()) - earlier, 1, "listening is said once per controller")
        self.assertEqual(daemon.stop(), 0)

    def test_bluetoothd_discovers_over_accessoryds_scan(self):
        self.lab.run(["bluetoothctl", "remove", self.advertiser])  # forget what an earlier test found
        started = len(self.started_entries())
        daemon = self.start_accessoryd()
        self.lab.wait_until(lambda: len(self.started_entries()) > started, timeout=30,
                            what="accessoryd to start scanning")
        self.wait_heard(daemon)
        self.start_discovery()
        self.wait_bluetoothd_lists_advertiser()
        self.wait_heard(daemon, after=len(self.accessoryd_lines(daemon)),
                        what="accessoryd to keep hearing while bluetoothd discovers")
        self.ctl.send("scan off")
        self.assertEqual(daemon.stop(), 0)
        self.assertTrue(self.bluetoothd.is_running(), "bluetoothd survived")
