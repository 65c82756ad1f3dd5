"""An accessory that protects its characteristic (a lock, a medical sensor): lab-peripheral with
--require-encryption answers a read over an unencrypted link with ATT Insufficient Authentication.
With a bond made through bluetoothd (Device1.Pair, LE Secure Connections, Just Works), a channel
that asks the kernel for security level medium before connecting (`L2CAPSocket.requireSecurity`)
is encrypted with the bond's key and reads the value; one that does not ask still fails. The
controllers are powered through the management interface first: the kernel registers its
Security Manager for a controller only when powered that way (a controller brought up with
HCIDEVUP alone answers every request for security with "security requested but not available")."""

import os
import sys

from labkit import LabTestCase

VALUE = "door locked"
HERE = os.path.dirname(os.path.abspath(__file__))


class EncryptionTests(LabTestCase):
    def setUp(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.central_address = controllers["hci0"].address
        self.peer_address = controllers["hci1"].address
        for index in ("0", "1"):
            for setting in (["power", "off"], ["bondable", "on"], ["power", "on"]):
                self.lab.run(["btmgmt", "--index", index, *setting], timeout=20).check()
        self.start_peripheral()

    def start_peripheral(self):
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

    def read(self, *security):
        return self.lab.run([self.lab.binary("lab-peripheral"), "central", "--controller", "hci0",
                             "--address", self.peer_address + "/public", *security], timeout=60)

    def test_a_without_a_bond_the_read_is_refused_by_the_accessory(self):
        result = self.read()
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("read failed: ", result.stdout)
        self.assertIn("Insufficient Authentication", result.stdout)
        self.assertNotIn(VALUE, result.stdout)

    def test_b_with_the_bond_bluetoothd_made_an_encrypted_channel_reads(self):
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n"], notify=False, name="bluetoothd")
        self.addCleanup(bluetoothd.stop)
        self.lab.wait_until(
            lambda: self.lab.run(["busctl", "--system", "status", "org.bluez"]).returncode == 0,
            timeout=30, what="bluetoothd on the bus")
        self.addCleanup(self.forget_the_bond)
        bond = self.lab.run([sys.executable, os.path.join(HERE, "bond.py"), "/org/bluez/hci0", self.peer_address],
                            timeout=120)
        self.assertEqual(bond.returncode, 0, bond.stdout + bond.stderr)
        self.assertIn("bonded Paired=True Bonded=True", bond.stdout)
        self.lab.wait_until(lambda: not self.le_links(), timeout=30, what="the pairing's link to go down")
        # In the lab bluetoothd manages the accessory's controller too, and its own ATT server there took
        # the pairing's link. The accessory is lab-peripheral: it starts again after bluetoothd, so that
        # its ATT listener is the one the kernel picks for the next link (and it advertises again).
        self.peripheral.stop()
        self.start_peripheral()

        encrypted = self.read("--security", "medium")
        self.assertEqual(encrypted.returncode, 0, encrypted.stdout + encrypted.stderr)
        self.assertIn(f'value "{VALUE}"', encrypted.stdout)

        # The bond alone does not encrypt a link: a channel that does not ask is refused again.
        self.lab.wait_until(lambda: not self.le_links(), timeout=30, what="the encrypted link to go down")
        self.lab.wait_until(lambda: "disconnected" in self.peripheral.output(), timeout=30,
                            what="lab-peripheral to see its client go and advertise again")
        plain = self.read()
        self.assertEqual(plain.returncode, 1, plain.stdout + plain.stderr)
        self.assertIn("Insufficient Authentication", plain.stdout)

    def le_links(self):
        listing = self.lab.run(["hcitool", "-i", "hci0", "con"], timeout=10).stdout
        return [line for line in listing.splitlines() if " LE " in line]

    def forget_the_bond(self):
        """Later scenarios build controllers with the same addresses: no bond may outlive this one."""
        for adapter, peer in (("/org/bluez/hci0", self.peer_address), ("/org/bluez/hci1", self.central_address)):
            self.lab.run([sys.executable, os.path.join(HERE, "bond.py"), "--remove", adapter, peer], timeout=30)
        self.lab.run(["sh", "-c", f"rm -rf /var/lib/bluetooth/{self.central_address}/{self.peer_address} "
                                  f"/var/lib/bluetooth/{self.peer_address}/{self.central_address}"])
