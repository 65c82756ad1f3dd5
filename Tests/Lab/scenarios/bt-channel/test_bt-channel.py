"""The Bluetooth LE channel: accessoryd's channel broker opens an L2CAP LE socket from hci0 to
the lab's peripheral on hci1 (ATT fixed channel, or a connection-oriented channel on a PSM) and hands it to another process, which reads the
characteristic over it; the per-controller limit refuses a further peer with its own error;
revoking shuts the daemon's copy down and the other process's reads fail; the broker notices a
channel the peer ended; an absent peer fails
within the connect timeout with a named error. lab-peripheral's central mode checks the socket
layer without the broker."""

import os
import select
import signal
import subprocess
import time

from labkit import LabTestCase
from labkit.peripheral import le_links, serve

VALUE = "21.5 C"
PSM = 0x0080  # the first dynamic LE PSM
ABSENT = "00:AA:01:09:09:09"


class LineReader:
    """A child's stdout read line by line, each wait bounded."""

    def __init__(self, process):
        self.process = process
        self.buffer = b""
        self.lines = []

    def wait_for(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            for line in self.lines:
                if text in line:
                    return line
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no line with {text!r} within {timeout} s; output so far:\n"
                                     + "\n".join(self.lines))
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    raise AssertionError(f"output ended without {text!r}:\n" + "\n".join(self.lines))
                self.buffer += chunk
                *complete, self.buffer = self.buffer.split(b"\n")
                self.lines += [line.decode(errors="replace") for line in complete]

    def rest(self, timeout=30):
        output, _ = self.process.communicate(timeout=timeout)
        self.lines += (self.buffer + output).decode(errors="replace").splitlines()
        return self.lines


def le_links(lab, controller):
    """The LE links `controller` has now, as hcitool lists them."""
    listing = lab.run(["hcitool", "-i", controller, "con"], timeout=10).stdout
    return [line for line in listing.splitlines() if " LE " in line]


class ChannelTests(LabTestCase):
    def setUp(self):
        # Each test starts without a link between the controllers: the kernel keeps
        # an LE link up for a while after its last channel closed, and a new
        # channel on a link that is going down ends as soon as it opens.
        self.lab.wait_until(lambda: not le_links(self.lab, "hci0"), timeout=30,
                            what="the previous test's LE link to go down")
        controllers = {c.name: c for c in self.lab.bluetooth_controllers()}
        self.peer = controllers["hci1"].address + "/public"
        self.peripheral = serve(self.lab, "--value", VALUE, "--psm", str(PSM))

    def tearDown(self):
        self.peripheral.stop()

    def connect(self, *arguments, command=(), timeout=90):
        argv = [self.lab.binary("accessoryd"), "--log-target=journal", *arguments]
        if command:
            argv += ["--", *command]
        return self.lab.run(argv, timeout=timeout)

    def central(self, *arguments):
        return [self.lab.binary("lab-peripheral"), "central", *arguments]

    def test_socket_layer_reads_the_characteristic(self):
        result = self.lab.run(self.central("--controller", "hci0", "--address", self.peer), timeout=60)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f'value "{VALUE}"', result.stdout)

    def test_handed_over_socket_reads_the_characteristic(self):
        result = self.connect("--connect", self.peer, "--controller", "hci0", command=self.central("--fd", "3"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} connected via hci0", result.stdout)
        self.assertIn(f'value "{VALUE}"', result.stdout)
        self.lab.wait_until(lambda: "disconnected" in self.peripheral.output(), timeout=30,
                            what="the peripheral to see the channel end")

    def test_psm_channel_reads_the_characteristic(self):
        result = self.connect("--connect", self.peer, "--controller", "hci0", "--psm", str(PSM),
                              command=self.central("--fd", "3"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} connected via hci0", result.stdout)
        self.assertIn(f'value "{VALUE}"', result.stdout)

    def test_psm_nobody_listens_on_is_refused(self):
        result = self.connect("--connect", self.peer, "--controller", "hci0", "--psm", str(PSM + 1))
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} failed: connection failed: connection refused", result.stdout)

    def test_second_peer_at_the_limit_is_refused(self):
        result = self.connect("--connect", self.peer, "--connect", ABSENT, "--controller", "hci0",
                              "--connection-limit", "1")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} connected via hci0", result.stdout)
        self.assertIn(f"channel 2 {ABSENT}/public failed: connection limit reached on hci0 (limit 1)",
                      result.stdout)

    def test_second_att_channel_to_the_same_peer_is_refused(self):
        result = self.connect("--connect", self.peer, "--connect", self.peer, "--controller", "hci0")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} connected via hci0", result.stdout)
        self.assertIn(f"channel 2 {self.peer} failed: the ATT channel to {self.peer} is already open",
                      result.stdout)

    def test_revoking_ends_the_other_process_channel(self):
        argv = [self.lab.binary("accessoryd"), "--log-target=journal", "--connect", self.peer,
                "--controller", "hci0", "--", *self.central("--fd", "3", "--read-again-on-input")]
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        self.addCleanup(lambda: process.poll() is None and process.kill())
        reader = LineReader(process)
        reader.wait_for(f'value "{VALUE}"', timeout=60)
        process.send_signal(signal.SIGUSR1)
        reader.wait_for("revoked")
        process.stdin.write(b"again\n")
        process.stdin.flush()
        lines = reader.rest()
        self.assertEqual(process.returncode, 3, "\n".join(lines))
        self.assertTrue(any(line.startswith("read failed: ") for line in lines), "\n".join(lines))
        self.assertEqual(sum(line.startswith("value ") for line in lines), 1, "\n".join(lines))

    def test_broker_notices_the_peer_leaving(self):
        argv = [self.lab.binary("accessoryd"), "--log-target=journal", "--connect", self.peer,
                "--controller", "hci0", "--", *self.central("--fd", "3", "--read-again-on-input")]
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        self.addCleanup(lambda: process.poll() is None and process.kill())
        reader = LineReader(process)
        reader.wait_for(f'value "{VALUE}"', timeout=60)
        self.peripheral.stop()  # the accessory goes away: its end of the link closes
        reader.wait_for("channel 1 ended", timeout=60)
        process.stdin.write(b"again\n")
        process.stdin.flush()
        lines = reader.rest()
        self.assertEqual(process.returncode, 3, "\n".join(lines))
        self.assertTrue(any(line.startswith("read failed: ") for line in lines), "\n".join(lines))

    def test_absent_peer_fails_with_a_named_error(self):
        result = self.connect("--connect", ABSENT, "--controller", "hci0", "--connect-timeout", "5", timeout=60)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {ABSENT}/public failed: connection failed: connection timed out", result.stdout)

    def test_missing_controller_is_named(self):
        result = self.connect("--connect", self.peer, "--controller", "hci7")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(f"channel 1 {self.peer} failed: no such controller: hci7", result.stdout)
