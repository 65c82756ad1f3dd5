"""accessoryd --replay of a `btmon -w` capture taken while accessoryd ran live prints the same
advertisement lines as the live run, then exits 0."""

import os
import signal
import subprocess
import time

from labkit import LabTestCase

CHANGED_DATA = bytes.fromhex("020106 0303 0f18 0416 0f18 33 0309 5271".replace(" ", ""))


def bluetooth_lines(text):
    return [line for line in text.splitlines() if line.startswith("bluetooth ")]


class ReplayTests(LabTestCase):
    def test_replay_prints_what_was_heard_live(self):
        capture = os.path.join(self.lab.evidence_dir, "live.btsnoop")
        btmon = subprocess.Popen(["btmon", "-w", capture], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            time.sleep(2)
            config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nScanMode=active\n")
            daemon = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                            "--log-target=journal", "--monitor"])
            daemon.wait_ready(timeout=60)

            def poking_until(predicate):
                """btvirt reports an advertiser only when its advertising is toggled."""
                def check():
                    if predicate():
                        return True
                    self.lab.readvertise("hci1")
                    time.sleep(0.5)
                    return False
                return check

            self.lab.wait_until(poking_until(lambda: len(bluetooth_lines(daemon.output())) >= 3),
                                timeout=40, what="three live advertisement lines")
            self.lab.advertiser("hci1").set_data(CHANGED_DATA)
            self.lab.wait_until(poking_until(lambda: "service_data=180F:33" in daemon.output()),
                                timeout=40, what="the changed advertisement live")
            self.assertEqual(daemon.stop(), 0)
            time.sleep(1)
        finally:
            btmon.send_signal(signal.SIGINT)
            btmon.wait(timeout=20)
        live = bluetooth_lines(daemon.output())

        replay = self.lab.run([self.lab.binary("accessoryd"), "--replay", capture, "--replay-speed", "max",
                               "--monitor", "--log-target=console"], timeout=120)
        self.assertEqual(replay.returncode, 0, replay.stderr)
        self.assertEqual(bluetooth_lines(replay.stdout), live)
        self.assertTrue(any('name="Rp"' in line and "manufacturer=ffff:0102030405060708" in line for line in live),
                        "the active scan merged the scan response")
