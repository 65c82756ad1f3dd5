"""accessoryd in daemon mode on a machine with no radio at all."""

import signal

from labkit import LabTestCase
from labkit.message_ids import NO_RADIOS


class NoRadiosTests(LabTestCase):
    def test_lab_really_has_no_radios(self):
        self.assertEqual(self.lab.wifi_interfaces(), [])
        self.assertEqual(self.lab.bluetooth_controllers(), [])

    def test_ready_says_no_radios_once_and_stops_on_sigterm(self):
        config = self.lab.write_file("accessoryd.conf", "")
        daemon = self.lab.start_daemon(
            [self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"])
        daemon.wait_ready(timeout=60)
        self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=NO_RADIOS)

        daemon.signal(signal.SIGTERM)
        self.assertEqual(daemon.wait_notify("STOPPING", "1", timeout=30), "1")
        self.assertEqual(daemon.wait_exit(timeout=30), 0, daemon.output())
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=NO_RADIOS)
        self.assertEqual(len(entries), 1, "NO_RADIOS must be logged exactly once")
