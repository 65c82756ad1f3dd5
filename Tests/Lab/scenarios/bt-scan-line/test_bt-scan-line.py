"""Under bluetoothd's discovery (`bluetoothctl scan on`), accessoryd takes the scan back after each
of the kernel's discovery cycles. The scan-started line is said at info once, when accessoryd first
scans; taking the scan back is logged at debug only (the issue saw it at info every ~16 s)."""

import os
import subprocess

from labkit import LabTestCase
from labkit.message_ids import SCAN_STARTED

INFO, DEBUG = "6", "7"


class ScanLineTests(LabTestCase):
    def test_scan_started_said_once_at_info_under_discovery(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        scanner = controllers["hci0"].address
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n"], notify=False, name="bluetoothd")
        self.addCleanup(bluetoothd.stop)
        self.lab.wait_until(lambda: "Powered: yes" in self.lab.run(["bluetoothctl", "show", scanner]).stdout,
                            timeout=30, what="bluetoothd to power hci0")
        config = self.lab.write_file("accessoryd.conf",
                                     "[Daemon]\nLogLevel=debug\n[Bluetooth]\nControllers=hci0\nScanWatchdog=0\n")
        daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"])
        daemon.wait_ready(timeout=60)

        def started(priority):
            return [e for e in self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0")
                    if e.get("PRIORITY") == priority]
        self.lab.wait_until(lambda: started(INFO), timeout=30, what="accessoryd to start scanning")

        log = open(os.path.join(self.lab.evidence_dir, "bluetoothctl.log"), "wb")
        ctl = subprocess.Popen(["bluetoothctl"], stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
        try:
            ctl.stdin.write(f"select {scanner}\nscan on\n".encode())
            ctl.stdin.flush()
            # Two discovery cycles taken back are enough to show repeats (the 90 s had five).
            self.lab.wait_until(lambda: len(started(DEBUG)) >= 2, timeout=100,
                                what="accessoryd to take the scan back twice after bluetoothd's discovery cycles")
        finally:
            try:
                ctl.stdin.write(b"scan off\nquit\n")
                ctl.stdin.flush()
                ctl.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                ctl.kill()
                ctl.wait()
            log.close()
        self.assertEqual(len(started(INFO)), 1, self.lab.journal_text(MESSAGE_ID=SCAN_STARTED))
        self.assertEqual(daemon.stop(), 0)
