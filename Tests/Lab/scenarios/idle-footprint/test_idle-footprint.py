"""accessoryd scanning hci0 beside bluetoothd, both left alone for IDLE_SECONDS with nothing on
the air: both stay up, accessoryd keeps its scan (no SCAN_STARTED again, which would mean it
lost and restarted it), and each one's resident memory, anonymous memory and wake-ups (context
switches of every thread) while idle go to footprint.txt in the evidence. `make bench` runs
this scenario with the release build and reports the figures; they never fail a test."""

import os
import time

from labkit import LabTestCase
from labkit.footprint import memory_kb, thread_switches
from labkit.message_ids import SCAN_STARTED

IDLE_SECONDS = 30
SETTLE_SECONDS = 3


class IdleFootprintTests(LabTestCase):
    def test_both_daemons_idle_beside_each_other(self):
        controller = self.lab.bluetooth_controllers()[0].address
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n"], notify=False, name="bluetoothd")
        self.lab.wait_until(lambda: "Powered: yes" in self.lab.run(["bluetoothctl", "show", controller]).stdout,
                            timeout=30, what=f"bluetoothd to power {controller}")
        config = self.lab.write_file("accessoryd.conf", "[Bluetooth]\nControllers=hci0\n")
        accessoryd = self.lab.start_daemon([self.lab.binary("accessoryd"), "--config", config,
                                            "--log-target=journal"])
        accessoryd.wait_ready(timeout=60)
        self.lab.wait_for_journal(timeout=30, MESSAGE_ID=SCAN_STARTED, BLUETOOTH_CONTROLLER="hci0")
        time.sleep(SETTLE_SECONDS)
        scans_before = len(self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED))

        daemons = {"accessoryd": accessoryd, "bluetoothd": bluetoothd}
        start = {name: thread_switches(daemon.pid) for name, daemon in daemons.items()}
        time.sleep(IDLE_SECONDS)
        lines = []
        for name, daemon in daemons.items():
            self.assertTrue(daemon.is_running(), f"{name} exited while idle:\n{daemon.output()}")
            memory = memory_kb(daemon.pid)
            woken = thread_switches(daemon.pid) - start[name]
            lines.append(f"{name} rss_kb={memory['VmRSS']} anon_kb={memory['RssAnon']} wakeups={woken} "
                         f"seconds={IDLE_SECONDS}")
        self.assertEqual(len(self.lab.journal_entries(MESSAGE_ID=SCAN_STARTED)), scans_before,
                         "accessoryd started its scan again while idle")
        with open(os.path.join(self.lab.evidence_dir, "footprint.txt"), "w") as figures:
            figures.write("\n".join(lines) + "\n")
        self.lab.log("footprint: " + "; ".join(lines))
