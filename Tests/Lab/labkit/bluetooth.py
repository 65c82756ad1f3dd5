"""Virtual LE controllers (hci_vhci + btvirt) and advertisers set up with raw HCI commands."""

import os
import re
import socket
import subprocess
from dataclasses import dataclass

from . import processes
from .hwconf import ADVERTISING_TYPES

ZERO_ADDRESS = "00:00:00:00:00:00"

# LE Controller commands (OGF 0x08).
OGF_LE = "0x08"
OCF_SET_ADVERTISING_PARAMETERS = "0x0006"
OCF_SET_ADVERTISING_DATA = "0x0008"
OCF_SET_SCAN_RESPONSE_DATA = "0x0009"
OCF_SET_ADVERTISE_ENABLE = "0x000A"


@dataclass
class Controller:
    name: str
    address: str
    up: bool


def controllers():
    """Every controller the kernel knows, as hciconfig reports it."""
    text = processes.run(["hciconfig"], timeout=20).stdout
    found = []
    for block in re.split(r"\n(?=hci\d+:)", text.strip()):
        name = re.match(r"(hci\d+):", block)
        address = re.search(r"BD Address: ([0-9A-F:]{17})", block)
        if name and address:
            found.append(Controller(name.group(1), address.group(1),
                                    bool(re.search(r"^\s+UP\b", block, re.M))))
    return sorted(found, key=lambda controller: int(controller.name[3:]))


def controller_names():
    return sorted((name for name in os.listdir("/sys/class/bluetooth") if re.fullmatch(r"hci\d+", name)),
                  key=lambda name: int(name[3:]))


class VirtualControllers:
    """btvirt -L -lN: N LE-only controllers on one virtual air, alive while btvirt runs."""

    def __init__(self):
        self.process = None
        self._output = None

    def stop(self):
        if self.process is not None:
            processes.stop_process(self.process)
            self.process = None
        if self._output is not None:
            self._output.close()
            self._output = None
        processes.wait_until(lambda: not controller_names(), timeout=30,
                             what="the virtual Bluetooth controllers to go away")

    def start(self, count, log_path, bring_up=True, log=None, attempts=3):
        """Under a loaded emulator btvirt's controllers sometimes never register or
        never finish their init (seen on the first Bluetooth scenario of a boot);
        starting btvirt afresh has always cured it, so try a few times."""
        for attempt in range(1, attempts + 1):
            try:
                self._start_once(count, log_path, bring_up, log)
                return
            except processes.LabTimeout:
                if attempt == attempts:
                    raise
                if log:
                    log(f"btvirt's controllers did not come up (attempt {attempt}); starting it again")
                self.stop()
                processes.run(["rmmod", "hci_vhci"], timeout=30, log=log)

    def _start_once(self, count, log_path, bring_up, log):
        processes.run(["modprobe", "hci_vhci"], timeout=30, log=log).check()
        if log:
            log(f"$ btvirt -L -l{count}")
        self._output = open(log_path, "ab")
        self.process = subprocess.Popen(
            ["btvirt", "-L", f"-l{count}"], stdin=subprocess.DEVNULL,
            stdout=self._output, stderr=subprocess.STDOUT)
        processes.wait_until(lambda: len(controller_names()) >= count, timeout=30,
                             what=f"{count} controllers from btvirt", interval=0.5)
        for name in controller_names():
            try:
                processes.wait_until(lambda: _initialised(name, bring_up, log), timeout=60,
                                     what=f"{name} to finish its init sequence", interval=1)
            except processes.LabTimeout:
                if log:
                    log(processes.run(["hciconfig", "-a"], timeout=20).stdout)
                raise
        # A controller whose first power-on failed under load comes up through
        # hciconfig but never joins the kernel's management index list, so
        # bluetoothd would not see it; only a fresh start cures that.
        names = controller_names()
        processes.wait_until(lambda: _managed(names), timeout=20, interval=1,
                             what="the kernel to list every controller for bluetoothd (btmgmt info)")


def _managed(names):
    listed = processes.run(["btmgmt", "info"], timeout=15).stdout
    return all(f"{name}:" in listed for name in names)


def _initialised(name, bring_up, log):
    """A controller has its address once the kernel's init sequence completed. Under a
    loaded emulator that sequence can time out at registration; powering the controller
    on runs it again, so keep trying."""
    state = next((c for c in controllers() if c.name == name), None)
    if state and state.address != ZERO_ADDRESS and (state.up or not bring_up):
        return True
    processes.run(["hciconfig", name, "up"], timeout=20, log=log)
    if not bring_up:
        state = next((c for c in controllers() if c.name == name), None)
        if state and state.address != ZERO_ADDRESS:
            processes.run(["hciconfig", name, "down"], timeout=20, log=log)
            return True
    return False


class Advertiser:
    """Legacy advertising on one controller through HCI commands, as a peripheral's firmware would."""

    def __init__(self, controller, log=None):
        self.controller = controller
        self.log = log

    def configure(self, adv_data=b"", scan_rsp=b"", interval_ms=100, advertising_type="ind"):
        interval = max(0x20, min(0x4000, round(interval_ms / 0.625)))
        parameters = (interval.to_bytes(2, "little") * 2 + bytes([
            ADVERTISING_TYPES[advertising_type],
            0x00,              # own address: public
            0x00,              # peer address type (directed advertising only)
        ]) + bytes(6) + bytes([
            0x07,              # all three primary channels
            0x00,              # no filter accept list
        ]))
        self.enable(False)
        self.command(OCF_SET_ADVERTISING_PARAMETERS, parameters)
        self.set_data(adv_data, scan_rsp)
        self.enable(True)

    def set_data(self, adv_data=None, scan_rsp=None):
        if adv_data is not None:
            self.command(OCF_SET_ADVERTISING_DATA, _padded(adv_data))
        if scan_rsp is not None:
            self.command(OCF_SET_SCAN_RESPONSE_DATA, _padded(scan_rsp))

    def enable(self, on=True):
        # Disabling what is not enabled answers "Command Disallowed"; that is fine here.
        self.command(OCF_SET_ADVERTISE_ENABLE, bytes([1 if on else 0]), check=on)

    def readvertise(self):
        """Toggle advertising: the emulated controller reports an advertiser when it is (re)enabled."""
        self.enable(False)
        self.enable(True)

    def command(self, ocf, parameters, check=True):
        argv = ["hcitool", "-i", self.controller, "cmd", OGF_LE, ocf] + [f"{b:02x}" for b in parameters]
        result = processes.run(argv, timeout=20, log=self.log)
        status = _command_complete_status(result.stdout)
        if check and (result.returncode != 0 or status != 0):
            raise AssertionError(
                f"{self.controller}: HCI LE command {ocf} failed (status {status}):\n{result.stdout}{result.stderr}")
        return status


def _padded(data):
    if len(data) > 31:
        raise ValueError(f"advertising data is {len(data)} bytes, legacy advertising allows 31")
    return bytes([len(data)]) + data + bytes(31 - len(data))


def _command_complete_status(hcitool_output):
    """hcitool prints the Command Complete event's parameters: ncmd, opcode (2), status, ..."""
    _, _, event = hcitool_output.partition("> HCI Event: 0x0e")
    tokens = re.findall(r"\b[0-9A-Fa-f]{2}\b", event.partition("\n")[2])
    return int(tokens[3], 16) if len(tokens) >= 4 else None


def peripheral_command(control_path, command):
    """A command (`on`, `off`, `beacon MS`, `hold`) to `lab-peripheral serve --control PATH`;
    returns its `ok ...` reply, sent once the sensor's controller has taken it."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as control:
        control.settimeout(30)
        control.connect(control_path)
        control.send(command.encode())
        reply = control.recv(512).decode(errors="replace")
    if not reply.startswith("ok"):
        raise AssertionError(f"lab-peripheral did not take {command!r}: {reply or '(no reply)'}")
    return reply
