"""The helper API a scenario's test file uses: `self.lab` in a LabTestCase."""

import os
import subprocess
import unittest

from . import bluetooth, hardware, journal, processes, wifi
from .daemon import Daemon


# An app as a user of its own, with no capability and no group: what accessoryd must serve.
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


class Lab:
    """One scenario's view of the VM: its radios, its journal entries, its daemons."""

    def __init__(self, name, config, hardware_, children, build_dir, evidence_dir, cursor, log):
        self.name = name
        self.config = config
        self.build_dir = build_dir
        self.evidence_dir = evidence_dir
        self.scratch_dir = os.path.join("/run/lab/scratch", name)
        os.makedirs(self.scratch_dir, exist_ok=True)
        self.cursor = cursor
        self.log = log
        self._hardware = hardware_
        self._children = children
        self._daemons = []

    # Programs --------------------------------------------------------------------------------

    def binary(self, name):
        """Path of one of the project's executables in the build directory; fails the test if missing."""
        path = os.path.join(self.build_dir, name)
        if not os.access(path, os.X_OK):
            raise AssertionError(f"{path} does not exist: build the package first (swift build)")
        return path

    def run(self, argv, timeout=60, env=None, input=None, netns=None):
        """Run a command to completion and return CommandResult(argv, returncode, stdout, stderr)."""
        return processes.run(argv, timeout=timeout, env=env, input=input, netns=netns, log=self.log)

    def start_daemon(self, argv=None, notify=True, env=None, name="accessoryd"):
        """Start a daemon (accessoryd by default) with a NOTIFY_SOCKET the lab listens on.

        Its stdout and stderr go to <evidence>/<name>-<n>.log; it is stopped at the
        end of the scenario whatever happens."""
        argv = list(argv) if argv is not None else [self.binary("accessoryd")]
        number = len(self._daemons) + 1
        log_path = os.path.join(self.evidence_dir, f"{name}-{number}.log")
        notify_path = os.path.join("/run/lab", f"notify-{self.name}-{number}.sock") if notify else None
        self.log(f"$ {' '.join(str(part) for part in argv)}" + (" (with NOTIFY_SOCKET)" if notify else ""))
        daemon = Daemon(argv, log_path, notify_path, env)
        self._daemons.append(daemon)
        return daemon

    def example_app(self, *arguments, stdin=None):
        """accessory-example as nobody, in the background: its output piped, its errors added to
        <evidence>/example-app.log."""
        self.log("$ (as nobody) accessory-example " + " ".join(arguments))
        with open(os.path.join(self.evidence_dir, "example-app.log"), "a") as log:
            return subprocess.Popen(AS_NOBODY + [self.binary("accessory-example"), *arguments],
                                    stdin=stdin, stdout=subprocess.PIPE, stderr=log, text=True)

    def accessoryctl(self, *arguments, timeout=30):
        """Run accessoryctl as root (the administrator); its stdout. A failure fails the test."""
        result = self.run([self.binary("accessoryctl"), *arguments], timeout=timeout)
        if result.returncode != 0:
            raise AssertionError(f"accessoryctl {' '.join(arguments)}: exit {result.returncode}: {result.stderr}")
        return result.stdout

    def write_app_manifests(self, manifests):
        """Write {name: text} as NAME.conf in a scratch directory for `accessoryd --apps`; return it."""
        directory = os.path.join(self.scratch_dir, "apps")
        os.makedirs(directory, exist_ok=True)
        for name, text in manifests.items():
            with open(os.path.join(directory, name + ".conf"), "w") as handle:
                handle.write(text)
        return directory

    def write_file(self, name, content):
        """Write a scratch file (a config, say) for this scenario; return its path."""
        path = os.path.join(self.scratch_dir, name)
        with open(path, "w") as handle:
            handle.write(content)
        return path

    def wait_until(self, predicate, timeout, what):
        return processes.wait_until(predicate, timeout, what)

    # Journal ---------------------------------------------------------------------------------

    def journal_entries(self, **fields):
        """This scenario's journal entries whose fields equal `fields` (values as text)."""
        journal.sync()
        return journal.entries(self.cursor, {key: str(value) for key, value in fields.items()})

    def wait_for_journal(self, timeout=30, count=1, **fields):
        """Wait until `count` entries match; return the first."""
        return journal.wait_for(self.cursor, {key: str(value) for key, value in fields.items()},
                                timeout, count)[0]

    def journal_text(self, **fields):
        """The matching entries as journalctl prints them for people."""
        return journal.short(self.cursor, {key: str(value) for key, value in fields.items()})

    # Radios ----------------------------------------------------------------------------------

    def bluetooth_controllers(self):
        """[Controller(name, address, up)] as the kernel reports them now."""
        return bluetooth.controllers()

    def wifi_interfaces(self):
        """[WiFiInterface(name, ifindex, phy, phy_name, address)] in the VM's main namespace."""
        return hardware.wifi_interfaces()

    def advertiser(self, controller):
        """The Advertiser on `controller`, from hw.conf or from advertise()."""
        return self._hardware.advertisers[controller]

    def advertise(self, controller, adv_data=b"", scan_rsp=b"", interval_ms=100, advertising_type="ind"):
        return self._hardware.advertise(controller, adv_data, scan_rsp, interval_ms, advertising_type)

    def readvertise(self, controller=None):
        """Toggle advertising so scanners get a fresh report (one controller, or every advertiser)."""
        for name in [controller] if controller else list(self._hardware.advertisers):
            self._hardware.advertisers[name].readvertise()

    def hotspot(self, interface):
        """The hostapd Hotspot hw.conf started on `interface`."""
        return self._hardware.hotspots[interface]

    def start_hostapd(self, interface, config_path, netns=""):
        return self._hardware.start_hotspot(self._children, interface, config_path,
                                            self.evidence_dir, netns)

    def start_wpa_supplicant(self, interface, netns=""):
        """A wpa_supplicant Station on `interface`: .connect(ssid, psk), .status(), .command(...)."""
        return wifi.Station(self._children, interface, self.evidence_dir, netns, log=self.log)

    # Teardown --------------------------------------------------------------------------------

    def close(self):
        for daemon in self._daemons:
            daemon.close()
        self._daemons.clear()


class LabTestCase(unittest.TestCase):
    """Base class for scenario tests; the runner sets `lab` before the tests run."""

    lab = None
