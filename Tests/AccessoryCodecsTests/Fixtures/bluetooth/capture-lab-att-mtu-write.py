"""How lab-att-mtu-write.btsnoop was captured: this file ran as a lab scenario (hw.conf as for
capture-lab-att.py), and the lab's btmon capture of it is the fixture. gatttool -I on hci0
exchanges the MTU with bluetoothd on hci1, writes the Service Changed CCC descriptor (0x000b)
and reads the device name. Kept for the record; it is not a scenario of the suite."""
import subprocess
import time

from labkit import LabTestCase

ADV = bytes.fromhex("0201060709 4c6162546167".replace(" ", ""))


class Capture(LabTestCase):
    def test_capture(self):
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        peer = controllers["hci1"].address
        bluetoothd = self.lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
        self.lab.wait_until(lambda: peer in self.lab.run(["bluetoothctl", "list"]).stdout,
                            timeout=30, what="bluetoothd")
        self.lab.advertise("hci1", ADV)
        log = open(f"{self.lab.evidence_dir}/gatttool.txt", "wb")
        tool = subprocess.Popen(["gatttool", "-i", "hci0", "-b", peer, "-t", "public", "-I"],
                                stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
        for command, pause in (("connect", 8), ("mtu 100", 4), ("char-write-req 0x000b 0200", 4),
                               ("char-read-hnd 0x0003", 4), ("disconnect", 2), ("quit", 1)):
            tool.stdin.write(command.encode() + b"\n")
            tool.stdin.flush()
            time.sleep(pause)
        tool.wait(timeout=20)
        log.close()
        bluetoothd.stop()
