"""The host side of the lab: pick the kernel, boot it with virtme-ng, follow the VM's
transcript, then report results and keep the evidence of failed scenarios.

The VM sees the host's root copy-on-write; only the run directory, passed with
vng --rwdir, is written through, so everything the host needs comes back there.
"""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import hwconf

LAB_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(os.path.dirname(LAB_DIR))
SCENARIOS_DIR = os.path.join(LAB_DIR, "scenarios")
DEMO_DIR = os.path.join(LAB_DIR, "demo")
GUEST_PYTHON = "/usr/bin/python3"  # Debian's: it has socket.AF_BLUETOOTH
BOOT_ALLOWANCE = 600               # seconds for booting and starting journald/D-Bus under emulation
TEARDOWN_ALLOWANCE = 120           # per scenario, on top of its own timeout


def default_build_dir():
    return os.path.join(REPO_ROOT, ".build", "debug")


def default_evidence_dir():
    return os.path.join(REPO_ROOT, "lab-evidence")


def newest_kernel():
    """$LAB_KERNEL, or the newest /boot/vmlinuz-* by version."""
    if os.environ.get("LAB_KERNEL"):
        return os.environ["LAB_KERNEL"]
    kernels = [name for name in os.listdir("/boot") if name.startswith("vmlinuz-")]
    if not kernels:
        raise SystemExit("lab: no /boot/vmlinuz-* (install linux-image-amd64)")

    def version_key(name):
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
    return os.path.join("/boot", max(kernels, key=version_key))


def scenario_names():
    names = []
    for name in sorted(os.listdir(SCENARIOS_DIR)):
        directory = os.path.join(SCENARIOS_DIR, name)
        if os.path.isfile(os.path.join(directory, "hw.conf")) and \
                os.path.isfile(os.path.join(directory, f"test_{name}.py")):
            names.append(name)
    return names


class Boot:
    """One vng run: the VM, its console log, the shared run directory."""

    def __init__(self, plan, kvm, timeout):
        self.kvm = kvm
        self.timeout = timeout
        self.run_dir = tempfile.mkdtemp(prefix="lab-run-")
        self.console_path = os.path.join(self.run_dir, "console.log")
        plan = dict(plan, run_dir=self.run_dir)
        self.plan_path = os.path.join(self.run_dir, "plan.json")
        with open(self.plan_path, "w") as handle:
            json.dump(plan, handle, indent=1)
        self.timed_out = False
        self.exit_status = None

    def command(self):
        guest = f"{GUEST_PYTHON} -m labkit.guest {shlex.quote(self.plan_path)}"
        argv = ["vng", "--run", newest_kernel(), "--user", "root", "--cwd", LAB_DIR,
                "--rwdir", self.run_dir, "--exec", guest]
        if not self.kvm:
            argv.insert(5, "--disable-kvm")
        return argv

    def run(self, show):
        """Boot, passing each new transcript line to `show`, until the VM ends or time runs out."""
        if shutil.which("vng") is None:
            raise SystemExit("lab: vng (virtme-ng) is not on PATH: pip install virtme-ng, or make lab-deps")
        transcript_path = os.path.join(self.run_dir, "transcript.log")
        with open(self.console_path, "wb") as console:
            vm = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=console,
                                  stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + self.timeout
        offset, pending = 0, ""
        try:
            while True:
                finished = vm.poll() is not None
                offset, pending = _follow(transcript_path, offset, pending, show)
                if finished:
                    break
                if time.monotonic() > deadline:
                    self.timed_out = True
                    _stop_group(vm)
                    break
                time.sleep(0.5)
        except KeyboardInterrupt:
            _stop_group(vm)
            raise
        offset, pending = _follow(transcript_path, offset, pending, show)
        if pending:
            show(pending)
        self.exit_status = vm.returncode

    def results(self):
        try:
            with open(os.path.join(self.run_dir, "results.json")) as handle:
                return json.load(handle)
        except (OSError, ValueError):
            return {"finished": False, "scenarios": []}

    def console_tail(self, lines=40):
        try:
            with open(self.console_path, "rb") as handle:
                text = handle.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def remove(self):
        shutil.rmtree(self.run_dir, ignore_errors=True)


def _follow(path, offset, pending, show):
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            chunk = handle.read()
    except FileNotFoundError:
        return offset, pending
    offset += len(chunk)
    pending += chunk.decode("utf-8", errors="replace")
    while "\n" in pending:
        line, pending = pending.split("\n", 1)
        show(line)
    return offset, pending


def _stop_group(process):
    """Stop vng and the QEMU it started (its own session, so its own process group)."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _announce_boot(kvm):
    mode = "KVM" if kvm else "software emulation, slow: about a minute or more"
    print(f"Booting the lab kernel {os.path.basename(newest_kernel())} ({mode})…", flush=True)


def _check_build_dir(build_dir):
    if not os.access(os.path.join(build_dir, "accessoryd"), os.X_OK):
        print(f"lab: warning: no accessoryd in {build_dir} (run swift build); "
              "scenarios that need it will fail", file=sys.stderr, flush=True)


def command_list():
    for name in scenario_names():
        config = hwconf.load(os.path.join(SCENARIOS_DIR, name, "hw.conf"))
        print(f"{name}: {config.wifi_radios} Wi-Fi radios, {config.bluetooth_controllers} LE controllers, "
              f"{len(config.hotspots)} hotspots, {len(config.advertisers)} advertisers, timeout {config.timeout} s")
    return 0


def command_run(names, kvm, build_dir, keep_evidence, timeout):
    available = scenario_names()
    unknown = [name for name in names if name not in available]
    if unknown:
        print(f"lab: unknown scenario(s): {', '.join(unknown)} (see: lab list)", file=sys.stderr)
        return 2
    names = names or available
    run_ids = _run_ids(names)
    outcomes = {}          # run id -> (passed, reason)
    planned = []
    for name, run_id in zip(names, run_ids):
        directory = os.path.join(SCENARIOS_DIR, name)
        try:
            config = hwconf.load(os.path.join(directory, "hw.conf"))
        except hwconf.HardwareConfigError as error:
            outcomes[run_id] = (False, f"bad hw.conf: {error}")
            continue
        planned.append({"name": name, "run_id": run_id, "directory": directory, "timeout": config.timeout})
    _check_build_dir(build_dir)

    boot = None
    if planned:
        overall = timeout or BOOT_ALLOWANCE + sum(s["timeout"] + TEARDOWN_ALLOWANCE for s in planned)
        boot = Boot({"mode": "run", "build_dir": build_dir, "scenarios": planned}, kvm, overall)
        _announce_boot(kvm)
        boot.run(show=lambda line: print(line, flush=True))
        reported = {r["name"]: (r["passed"], r["reason"]) for r in boot.results()["scenarios"]}
        for scenario in planned:
            run_id = scenario["run_id"]
            if run_id in reported:
                outcomes[run_id] = reported[run_id]
            elif boot.timed_out:
                outcomes[run_id] = (False, f"the lab hit its overall timeout of {overall} s")
            else:
                outcomes[run_id] = (False, f"never reported (VM exit status {boot.exit_status})")
        if not boot.results()["finished"]:
            print(f"lab: the VM did not finish its plan; last console lines:\n{boot.console_tail()}",
                  flush=True)

    _keep_evidence(boot, outcomes, keep_evidence)
    if boot:
        boot.remove()
    passed = [run_id for run_id in run_ids if outcomes[run_id][0]]
    failed = [run_id for run_id in run_ids if not outcomes[run_id][0]]
    for run_id in run_ids:
        print(f"{'PASS' if outcomes[run_id][0] else 'FAIL'} {run_id}: {outcomes[run_id][1]}")
    # The last line names what failed: a log cut to its tail still says which scenario it was.
    print(f"{len(passed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""), flush=True)
    return 0 if not failed else 1


def _run_ids(names):
    """A scenario named again runs again, reported as NAME.2, NAME.3 …"""
    seen, run_ids = {}, []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        run_ids.append(name if seen[name] == 1 else f"{name}.{seen[name]}")
    return run_ids


def _keep_evidence(boot, outcomes, keep_all_dir):
    """Failed scenarios' evidence to lab-evidence/<scenario>/; with --keep-evidence DIR,
    every scenario's evidence to DIR/<scenario>/ instead."""
    root = keep_all_dir or default_evidence_dir()
    for name, (passed, reason) in outcomes.items():
        if passed and not keep_all_dir:
            continue
        target = os.path.join(root, name)
        shutil.rmtree(target, ignore_errors=True)
        source = os.path.join(boot.run_dir, name) if boot else None
        if source and os.path.isdir(source):
            shutil.copytree(source, target)
        else:
            os.makedirs(target, exist_ok=True)
        if boot:
            shutil.copyfile(boot.console_path, os.path.join(target, "console.log"))
        with open(os.path.join(target, "result.txt"), "a") as handle:
            handle.write(f"{'PASS' if passed else 'FAIL'}: {reason}\n")
        if not passed:
            print(f"lab: evidence for {name} kept in {os.path.relpath(target)}", flush=True)


def command_demo(kvm, build_dir, timeout):
    _check_build_dir(build_dir)
    boot = Boot({"mode": "demo", "build_dir": build_dir, "demo_dir": DEMO_DIR}, kvm,
                timeout or BOOT_ALLOWANCE + 300 + TEARDOWN_ALLOWANCE)
    _announce_boot(kvm)
    boot.run(show=lambda line: print(line, flush=True))
    results = boot.results()
    passed = results["finished"] and all(r["passed"] for r in results["scenarios"])
    if not results["finished"]:
        why = "timed out" if boot.timed_out else f"ended with status {boot.exit_status}"
        print(f"lab: the VM {why} before the demo finished; last console lines:\n{boot.console_tail()}")
    _keep_evidence(boot, {"demo": (passed, "demo finished" if passed else "demo failed")}, None)
    boot.remove()
    return 0 if passed else 1
