"""How lab-att-exchange.btsnoop was captured: this file ran as a lab scenario
(Tests/Lab/scenarios/att-capture/test_att-capture.py, with a hw.conf of two LE
controllers and hci1 advertising ADV_IND flags 0x06 + name "LabTag"), and the
lab's own btmon capture of it (--keep-evidence) is the fixture. gatttool on hci0
discovers and reads bluetoothd's GATT database on hci1; bluetoothd discovers hci0
in turn. Kept for the record; it is not a scenario of the suite."""
from labkit import LabTestCase

class Capture(LabTestCase):
    def test_capture(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        peer = controllers["hci1"].address
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
        self.lab.wait_until(lambda: peer in self.lab.run(["bluetoothctl", "list"]).stdout,
                            timeout=30, what="bluetoothd")
        self.lab.advertise("hci1", bytes.fromhex("0201060709 4c6162546167".replace(" ", "")))
        out = []
        for args in (["--primary"], ["--characteristics"], ["--char-desc"], ["--char-read", "-a", "0x0003"],
                     ["--char-read", "-a", "0x0099"], ["--char-write-req", "-a", "0x0003", "-n", "4142"],
                     ["--char-read", "-u", "2a00"], ["--primary", "-u", "1800"]):
            r = self.lab.run(["gatttool", "-i", "hci0", "-b", peer, "-t", "public", "-m", "100"] + args, timeout=40)
            out.append(f"$ {args}\n{r.returncode}\n{r.stdout}{r.stderr}")
            self.lab.advertise("hci1", bytes.fromhex("0201060709 4c6162546167".replace(" ", "")))
        with open(f"{self.lab.evidence_dir}/gatttool.txt", "w") as f:
            f.write("\n".join(out))
        bluetoothd.stop()
