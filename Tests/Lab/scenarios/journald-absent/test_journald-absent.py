"""journald absent at start: accessoryd starts without it, logs to stderr and says so, and its
D-Bus API and the grant store work. The journal socket is hidden from accessoryd alone, by a
mount namespace with an empty tmpfs over /run/systemd/journal, so the lab's journald keeps
serving the other scenarios in this boot."""

import os
import re

from labkit import LabTestCase
from labkit.message_ids import ACCESSORIES_MIGRATED, DAEMON_READY

APP = "[App]\nName=journal-less\nUser=root\nSupports=Bluetooth\n"
ABSENT = "journald is not running (no /run/systemd/journal/socket): logging to standard error"
MANAGER = ["org.accessoryagent", "/org/accessoryagent"]


class JournaldAbsentTests(LabTestCase):
    def start(self, log_target, number):
        lab = self.lab
        apps = lab.write_app_manifests({"journal-less": APP})
        config = lab.write_file("accessoryd.conf", "")
        state = os.path.join(lab.scratch_dir, f"state-{number}")
        accessoryd = " ".join([lab.binary("accessoryd"), "--config", config, "--apps", apps,
                               f"--log-target={log_target}"])
        # No journald for this process: its socket directory is an empty tmpfs here.
        script = f"mount -t tmpfs -o size=64k tmpfs /run/systemd/journal && exec {accessoryd}"
        daemon = lab.start_daemon(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                                  env={**os.environ, "STATE_DIRECTORY": state})
        daemon.wait_ready(timeout=90)
        return daemon

    def busctl(self, *arguments):
        return self.lab.run(["busctl", "call", *arguments], timeout=30).check().stdout

    def grant_one(self):
        session = re.search(r'"(.+)"', self.busctl(*MANAGER, "org.accessoryagent.Manager1",
                                                   "OpenPersistentSession")).group(1)
        self.busctl("org.accessoryagent", session, "org.accessoryagent.Session1", "Activate")
        self.busctl("org.accessoryagent", session, "org.accessoryagent.Session1", "Migrate",
                    "a(sssa{ss})", "1", "Lamp", "C0:FF:EE:00:10:01", "", "0")
        request = self.lab.accessoryctl("requests")
        number = re.search(r"request (\d+)", request).group(1)
        self.lab.accessoryctl("approve", number, "0")
        return self.lab.accessoryctl("accessories")

    def check(self, log_target, number):
        journal_before = len(self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd"))
        daemon = self.start(log_target, number)
        accessories = self.grant_one()
        self.assertIn("C0:FF:EE:00:10:01", accessories)
        output = daemon.output()
        self.assertIn(ABSENT, output)
        self.assertIn("accessoryd is ready", output)
        self.assertIn("registered for journal-less by administrator root", output)
        self.assertEqual(daemon.stop(), 0)
        # Nothing of it reached the lab's journald: it really had none.
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd")
        self.assertEqual(len(entries), journal_before)
        self.assertEqual(self.lab.journal_entries(MESSAGE_ID=ACCESSORIES_MIGRATED), [])

    def test_a_automatic_log_target(self):
        # What the unit runs (no --log-target): the journal, when there is one.
        self.check("auto", 1)

    def test_b_journal_asked_for(self):
        # Asked for the journal by name, it does not log into the void either.
        self.check("journal", 2)

    def test_c_with_journald_it_logs_there(self):
        # The same daemon, journal socket visible: entries arrive, and nothing claims it is absent.
        lab = self.lab
        config = lab.write_file("accessoryd.conf", "")
        daemon = lab.start_daemon([lab.binary("accessoryd"), "--config", config, "--log-target=auto"],
                                  env={**os.environ, "STATE_DIRECTORY": os.path.join(lab.scratch_dir, "state-3")})
        daemon.wait_ready(timeout=90)
        lab.wait_for_journal(SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=DAEMON_READY)
        self.assertNotIn(ABSENT, daemon.output())
        self.assertEqual(daemon.stop(), 0)
