"""Inside the VM: start journald and the system bus, then for each scenario reset the radios,
build its hardware, run its unittest file and keep its evidence in the shared run directory.

Run by the host as: /usr/bin/python3 -m labkit.guest RUN_DIR/plan.json
(Debian's python3: it has socket.AF_BLUETOOTH.)
"""

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback
import unittest

from . import hwconf, journal, processes
from .hardware import Hardware
from .helper import Lab, LabTestCase
from .transcript import Tee, Transcript, TranscriptStream

TEARDOWN_TIMEOUT = 90


class ScenarioTimeout(KeyboardInterrupt):
    """Raised by SIGALRM. A KeyboardInterrupt so unittest lets it through instead of
    recording it as one test's error and carrying on with the next (possibly also hung) test."""


def _on_alarm(signum, frame):
    raise ScenarioTimeout()


def start_services(transcript):
    """journald and a system D-Bus, as on a board; both live for the whole boot."""
    os.makedirs("/run/lab", exist_ok=True)
    os.makedirs("/run/dbus", exist_ok=True)
    # btmon needs the Bluetooth core for its monitor socket, even in scenarios without controllers.
    processes.run(["modprobe", "bluetooth"], timeout=60)
    # As the Debian package does: the bus policy that lets accessoryd own its name,
    # and the DHCP client's script where accessoryd runs it from.
    packaging = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))), "packaging")
    os.makedirs("/etc/dbus-1/system.d", exist_ok=True)
    shutil.copy(os.path.join(packaging, "dbus", "org.accessoryagent.conf"), "/etc/dbus-1/system.d/org.accessoryagent.conf")
    os.makedirs("/usr/libexec/accessoryd", exist_ok=True)
    shutil.copy(os.path.join(packaging, "libexec", "udhcpc-script"), "/usr/libexec/accessoryd/udhcpc-script")
    processes.run(["dbus-daemon", "--system", "--fork"], timeout=30).check()
    journald = subprocess.Popen(["/lib/systemd/systemd-journald"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.wait_until(lambda: os.path.exists("/run/systemd/journal/socket"), timeout=60,
                         what="journald's socket")
    transcript.say(f"lab: kernel {os.uname().release}, journald (pid {journald.pid}) and the system bus are up")
    return journald


class ScenarioRun:
    """One scenario from reset to evidence."""

    def __init__(self, name, directory, hardware, build_dir, run_dir, transcript, run_id=None):
        self.name = name
        # A scenario named twice in one run gets its own evidence and scratch
        # directories each time ("wifi-join", "wifi-join.2"), so no run sees another's files.
        self.run_id = run_id or name
        self.directory = directory
        self.hardware = hardware
        self.build_dir = build_dir
        self.evidence_dir = os.path.join(run_dir, self.run_id)
        os.makedirs(self.evidence_dir, exist_ok=True)
        self.transcript = transcript
        self._setup_log = open(os.path.join(self.evidence_dir, "setup.log"), "a", buffering=1)
        self.children = processes.Children()
        self.lab = None
        self.cursor = None

    def log(self, line):
        self._setup_log.write(f"{time.monotonic():10.3f} {line}\n")

    def prepare(self, config):
        """Reset, start btmon, build the scenario's radios; returns the Lab helper."""
        self.hardware.log = self.log
        self.hardware.reset()
        self.cursor = journal.current_cursor()
        btmon_output = open(os.path.join(self.evidence_dir, "btmon.log"), "wb")
        self.children.spawn("btmon", ["btmon", "-w", os.path.join(self.evidence_dir, "btmon.snoop")],
                            stdout=btmon_output)
        btmon_output.close()
        self.hardware.build(config, self.children, self.evidence_dir)
        self.lab = Lab(self.run_id, config, self.hardware, self.children, self.build_dir,
                       self.evidence_dir, self.cursor, self.log)
        return self.lab

    def teardown(self):
        if self.lab:
            self.lab.close()
        # btmon last, so the capture holds the whole scenario.
        self.children.stop_all()
        journal.sync()
        journal.export(self.cursor, os.path.join(self.evidence_dir, "journal.export"))
        self._setup_log.close()


def run_scenario(name, directory, hardware, build_dir, run_dir, transcript, run_id=None):
    """Returns (passed, one-line reason)."""
    started = time.monotonic()
    scenario = ScenarioRun(name, directory, hardware, build_dir, run_dir, transcript, run_id)
    test_log = open(os.path.join(scenario.evidence_dir, "test.log"), "w", buffering=1)
    stream = Tee(test_log, TranscriptStream(transcript, prefix="    "))
    passed, reason = False, "did not finish"
    config = None
    try:
        config = hwconf.load(os.path.join(directory, "hw.conf"))
        signal.alarm(config.timeout)
        transcript.say(f"=== {scenario.run_id}: {_describe(config)}")
        lab = scenario.prepare(config)
        LabTestCase.lab = lab
        suite = unittest.defaultTestLoader.loadTestsFromModule(_load_test_module(name, directory))
        result = unittest.TextTestRunner(stream=stream, verbosity=2).run(suite)
        if result.testsRun == 0:
            reason = "no tests found"
        elif result.wasSuccessful():
            passed, reason = True, f"{result.testsRun} tests passed"
        else:
            reason = (f"{len(result.failures)} failed, {len(result.errors)} errors "
                      f"of {result.testsRun} tests")
    except ScenarioTimeout:
        reason = f"timed out after {config.timeout} s"
        # The innermost frames say where the scenario was stuck.
        stream.write(f"SCENARIO TIMEOUT after {config.timeout} s\n{traceback.format_exc(limit=-3)}")
    except Exception as error:  # a broken hw.conf or radios that would not come up
        reason = f"setup failed: {error}"
        stream.write(f"SETUP FAILED\n{traceback.format_exc()}")
    finally:
        signal.alarm(TEARDOWN_TIMEOUT)
        try:
            scenario.teardown()
        except Exception:
            stream.write(f"TEARDOWN FAILED\n{traceback.format_exc()}")
        except ScenarioTimeout:
            stream.write("TEARDOWN TIMED OUT\n")
        signal.alarm(0)
        LabTestCase.lab = None
    duration = time.monotonic() - started
    with open(os.path.join(scenario.evidence_dir, "result.txt"), "w") as handle:
        handle.write(f"{'PASS' if passed else 'FAIL'} {reason} ({duration:.1f} s)\n")
    transcript.say(f"=== {scenario.run_id}: {'PASS' if passed else 'FAIL'} ({reason}, {duration:.0f} s)")
    test_log.close()
    return passed, reason


def _describe(config):
    parts = [f"{config.wifi_radios} Wi-Fi radios", f"{config.bluetooth_controllers} LE controllers"]
    parts += [f"hostapd on {h.interface}" + (f" in {h.netns}" if h.netns else "") for h in config.hotspots]
    parts += [f"advertiser on {a.controller}" for a in config.advertisers]
    return ", ".join(parts)


def _load_test_module(name, directory):
    path = os.path.join(directory, f"test_{name}.py")
    module_name = "scenario_" + "".join(c if c.isalnum() else "_" for c in name)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_results(run_dir, results, finished):
    path = os.path.join(run_dir, "results.json")
    with open(path + ".tmp", "w") as handle:
        json.dump({"finished": finished, "scenarios": results}, handle, indent=1)
    os.replace(path + ".tmp", path)


def main(plan_path):
    with open(plan_path) as handle:
        plan = json.load(handle)
    run_dir = plan["run_dir"]
    transcript = Transcript(os.path.join(run_dir, "transcript.log"))
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        start_services(transcript)
    except Exception:
        transcript.say(f"lab: could not start journald/D-Bus:\n{traceback.format_exc()}")
        return 2
    hardware = Hardware(log=lambda line: None)
    if plan["mode"] == "demo":
        from . import demo
        status = demo.run(plan, hardware, transcript)
        write_results(run_dir, [{"name": "demo", "passed": status == 0,
                                 "reason": "finished" if status == 0 else "failed"}], finished=True)
        return status
    results = []
    for scenario in plan["scenarios"]:
        passed, reason = run_scenario(scenario["name"], scenario["directory"], hardware,
                                      plan["build_dir"], run_dir, transcript, scenario["run_id"])
        results.append({"name": scenario["run_id"], "passed": passed, "reason": reason})
        write_results(run_dir, results, finished=False)
    write_results(run_dir, results, finished=True)
    return 0 if all(result["passed"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
