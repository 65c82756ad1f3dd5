"""The journald handler: MESSAGE_ID, PRIORITY, identifier, swift-log metadata as uppercase
fields (bluetooth.controllers -> BLUETOOTH_CONTROLLERS) and the source location."""

from labkit import LabTestCase
from labkit.message_ids import RADIOS_PROBED


class JournalFieldsTests(LabTestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = cls.lab.run(
            [cls.lab.binary("accessoryd"), "--probe", "--log-target=journal"], timeout=60)
        # Waited for once; every test reports the same reason if it never came.
        try:
            cls.entry = cls.lab.wait_for_journal(
                timeout=30, SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=RADIOS_PROBED)
            cls.missing = None
        except AssertionError as error:
            cls.entry, cls.missing = None, str(error)

    def setUp(self):
        if self.missing:
            self.fail(f"no RADIOS_PROBED entry: {self.missing}\naccessoryd said: "
                      f"{self.result.returncode} {self.result.stdout}{self.result.stderr}")

    def test_probe_exits_successfully(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)

    def test_entry_is_identified_and_has_a_priority(self):
        self.assertEqual(self.entry.get("SYSLOG_IDENTIFIER"), "accessoryd")
        self.assertRegex(self.entry.get("PRIORITY", ""), r"^[0-7]$")
        self.assertTrue(self.entry.get("MESSAGE"), "entry has no MESSAGE")

    def test_metadata_becomes_uppercase_fields(self):
        self.assertEqual(self.entry.get("BLUETOOTH_CONTROLLERS"),
                         str(len(self.lab.bluetooth_controllers())))
        self.assertEqual(self.entry.get("WIFI_INTERFACES"), str(len(self.lab.wifi_interfaces())))
        self.assertEqual(self.entry.get("BLUETOOTH_CONTROLLERS"), "2")
        self.assertEqual(self.entry.get("WIFI_INTERFACES"), "2")

    def test_entry_names_its_source_location(self):
        self.assertTrue(self.entry.get("CODE_FILE"), "no CODE_FILE")
        self.assertRegex(self.entry.get("CODE_LINE", ""), r"^[1-9]\d*$")
        self.assertTrue(self.entry.get("CODE_FUNC"), "no CODE_FUNC")

    def test_probe_logs_radios_probed_once(self):
        entries = self.lab.journal_entries(SYSLOG_IDENTIFIER="accessoryd", MESSAGE_ID=RADIOS_PROBED)
        self.assertEqual(len(entries), 1)
