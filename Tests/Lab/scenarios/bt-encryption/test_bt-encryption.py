"""An accessory that protects its characteristic (a lock, a medical sensor): lab-peripheral with
--require-encryption answers a read over an unencrypted link with ATT Insufficient Authentication,
which is what an app gets today from such an accessory (accessoryd does not pair yet). The
controllers are powered through the management interface first: the kernel registers its
Security Manager for a controller only when powered that way (a controller brought up with
HCIDEVUP alone answers every request for security with "security requested but not available")."""

from labkit import LabTestCase

VALUE = "door locked"


class EncryptionTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.peer_address = controllers["hci1"].address
        for index in ("0", "1"):
            for setting in (["power", "off"], ["bondable", "on"], ["power", "on"]):
                self.lab.run(["btmgmt", "--index", index, *setting], timeout=20).check()
        self.peripheral = self.lab.start_daemon(
            [self.lab.binary("lab-peripheral"), "serve", "--controller", "hci1", "--value", VALUE,
             "--require-encryption"],
            notify=False, name="lab-peripheral")
        self.lab.wait_until(lambda: "serving hci1" in self.peripheral.output() or self.failed_early(),
                            timeout=30, what="lab-peripheral to advertise and listen on hci1")

    def failed_early(self):
        if not self.peripheral.is_running():
            raise AssertionError(f"lab-peripheral exited:\n{self.peripheral.output()}")
        return False

    def tearDown(self):
        self.peripheral.stop()

    def read(self):
        return self.lab.run([self.lab.binary("lab-peripheral"), "central", "--controller", "hci0",
                             "--address", self.peer_address + "/public"], timeout=60)

    def test_a_without_a_bond_the_read_is_refused_by_the_accessory(self):
        result = self.read()
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("read failed: ", result.stdout)
        self.assertIn("Insufficient Authentication", result.stdout)
        self.assertNotIn(VALUE, result.stdout)
