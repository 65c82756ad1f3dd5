"""bluetoothd in a scenario: started beside accessoryd on the lab's controllers, its devices
looked up and forgotten over D-Bus, and bluetoothctl standing in for an accessory's person."""

import os
import re
import subprocess
import threading
import time


def device_path(controller, address):
    """bluetoothd's object path for `address` on `controller` (hci0, say)."""
    return f"/org/bluez/{controller}/dev_" + address.replace(":", "_").upper()


def start_bluetoothd(test, addresses):
    """bluetoothd, stopped at the test's end, once it has powered the controllers at `addresses`.

    They are powered through the management interface first, bondable: only a controller powered
    so has the kernel's Security Manager, and bluetoothd finds them powered and keeps them so."""
    lab = test.lab
    for index in range(len(addresses)):
        for setting in (["power", "off"], ["bondable", "on"], ["power", "on"]):
            lab.run(["btmgmt", "--index", str(index), *setting], timeout=20).check()
    bluetoothd = lab.start_daemon(["/usr/sbin/bluetoothd", "-n", "-d"], notify=False, name="bluetoothd")
    test.addCleanup(bluetoothd.stop)
    for address in addresses:
        lab.wait_until(lambda: "Powered: yes" in lab.run(["bluetoothctl", "show", address]).stdout,
                       timeout=30, what=f"bluetoothd to power {address}")
    return bluetoothd


def forget(lab, controller, address):
    """bluetoothd's RemoveDevice of `address` on `controller`: its bond, if any, goes too."""
    lab.run(["busctl", "call", "org.bluez", f"/org/bluez/{controller}", "org.bluez.Adapter1",
             "RemoveDevice", "o", device_path(controller, address)], timeout=20)


def forget_each_other(test, gateway, accessory):
    """Nothing left from an earlier scenario in this boot, and nothing left for the next:
    bluetoothd's storage outlives a scenario. `gateway` and `accessory` are hci0's and hci1's addresses."""
    for controller, address in (("hci0", accessory), ("hci1", gateway)):
        forget(test.lab, controller, address)
        test.addCleanup(forget, test.lab, controller, address)


def device_property(lab, address, name, controller="hci0"):
    """A property of bluetoothd's Device1 for `address`, as busctl prints it (`b true`); None without one."""
    result = lab.run(["busctl", "get-property", "org.bluez", device_path(controller, address), "org.bluez.Device1",
                      name], timeout=20)
    return result.stdout.strip() if result.returncode == 0 else None


def nudge_until_known(lab, address, keep_going=lambda: True, timeout=90):
    """Toggles hci1's advertising until bluetoothd's discovery on hci0 has a Device1 for `address`;
    whether it has. The emulated controller reports an advertiser once per scan, at once when the
    scan is enabled, before the kernel counts its discovery as running, so bluetoothd's discovery
    would otherwise never hear it (as bt-coexistence found)."""
    deadline = time.monotonic() + timeout
    while device_property(lab, address, "Address") is None:
        if not keep_going() or time.monotonic() > deadline:
            return False
        for enable in ("00", "01"):
            lab.run(["hcitool", "-i", "hci1", "cmd", "0x08", "0x000a", enable], timeout=20)
        time.sleep(1)
    return True


def paired(lab):
    """The identity addresses bluetoothctl lists as paired (on hci0, its default controller)."""
    listing = lab.run(["bluetoothctl", "devices", "Paired"], timeout=20).stdout
    return set(re.findall(r"^Device ([0-9A-F:]{17}) ", listing, re.M))


class AccessoryAgent:
    """bluetoothctl as bluetoothd's default agent, for the accessory's side of a pairing (hci1 is
    bluetoothd's too): it says yes to every pairing it is asked about, as an accessory without
    buttons does to Just Works. With `capability` DisplayOnly it shows a passkey and is asked nothing.
    Registered before accessoryd's agent, it stays the default: BlueZ makes the first agent the
    default, and the default agent's capability is every controller's."""

    def __init__(self, lab, capability="NoInputNoOutput"):
        self.log_path = os.path.join(lab.evidence_dir, "bluetoothctl-agent.log")
        self.output = open(self.log_path, "wb")
        self.process = subprocess.Popen(["bluetoothctl", "--agent", capability], stdin=subprocess.PIPE,
                                        stdout=self.output, stderr=subprocess.STDOUT)
        self.answered = 0
        self.stopping = threading.Event()
        # bluetoothctl registers its agent once it is connected to bluetoothd; commands before that fail.
        lab.wait_until(lambda: "Agent registered" in self.text(), timeout=30, what="bluetoothctl's agent")
        self.send("default-agent")
        lab.wait_until(lambda: "Default agent request successful" in self.text(), timeout=30,
                       what="bluetoothctl to be the default agent")
        self.thread = threading.Thread(target=self.answer, daemon=True)
        self.thread.start()

    def send(self, line):
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def passkeys(self):
        """The passkeys bluetoothd asked this agent to show, in order."""
        # bluetoothctl colours the digits: its escapes (and readline's markers around them) go first.
        plain = re.sub(r"\x1b\[[0-9;]*m|[\x01\x02]", "", self.text())
        return re.findall(r"Passkey: (\d{6})", plain)

    def text(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode(errors="replace")

    def answer(self):
        while not self.stopping.wait(0.2):
            # Once per request: bluetoothctl prints its prompt again after every line of other output.
            asked = len(re.findall(r"Request (?:authorization|confirmation)", self.text()))
            while self.answered < asked:
                self.send("yes")
                self.answered += 1

    def close(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.output.close()
