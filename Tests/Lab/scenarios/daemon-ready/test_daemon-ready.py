"""accessoryd in daemon mode: READY=1 and STATUS=, DAEMON_READY in the journal, SIGHUP with an
unknown configuration key logs CONFIG_INVALID (file, line, key) and keeps running, SIGTERM exits 0."""

import re

from labkit import LabTestCase
from labkit.message_ids import CONFIG_INVALID, DAEMON_READY

# accessoryd.conf is a systemd-style key file; the key is unknown, the syntax is fine.
UNKNOWN_KEY = "LabUnknownKey"
BAD_CONFIG = f"# written by the lab scenario daemon-ready\n[Daemon]\n{UNKNOWN_KEY}=yes\n"
BAD_LINE = 3


def mentions_line(entry, line):
    """The line number as a field of its own or as a number in MESSAGE (CODE_LINE does not count)."""
    for key, value in entry.items():
        if key.startswith("_") or key.startswith("CODE_") or not isinstance(value, str):
            continue
        if key != "MESSAGE" and value == str(line):
            return True
    return re.search(rf"(?<!\d){line}(?!\d)", entry.get("MESSAGE", "")) is not None


class DaemonReadyTests(LabTestCase):
    def test_ready_reload_with_unknown_key_then_stop(self):
        config = self.lab.write_file("accessoryd.conf", "")
        daemon = self.lab.start_daemon(
            [self.lab.binary("accessoryd"), "--config", config, "--log-target=journal"])
        daemon.wait_ready(timeout=60)
        self.assertTrue(daemon.wait_notify("STATUS", timeout=30).strip(), "STATUS= is empty")
        self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=DAEMON_READY)

        self.lab.write_file("accessoryd.conf", BAD_CONFIG)
        daemon.reload()
        entry = self.lab.wait_for_journal(timeout=30, SYSLOG_IDENTIFIER="accessoryd",
                                          MESSAGE_ID=CONFIG_INVALID)
        self.assertTrue(daemon.is_running(), f"daemon exited after a bad reload:\n{daemon.output()}")
        visible = {k: v for k, v in entry.items() if not k.startswith("_") and not k.startswith("CODE_")}
        text = "\n".join(str(value) for value in visible.values())
        self.assertIn(config, text, f"CONFIG_INVALID does not name the file: {visible}")
        self.assertIn(UNKNOWN_KEY, text, f"CONFIG_INVALID does not name the key: {visible}")
        self.assertTrue(mentions_line(entry, BAD_LINE), f"CONFIG_INVALID does not name line {BAD_LINE}: {visible}")

        self.assertEqual(daemon.stop(timeout=30), 0, daemon.output())
        self.assertEqual(daemon.notifications("STOPPING"), ["1"])
