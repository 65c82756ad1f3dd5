"""Running programs inside the VM: every wait has a timeout, every child is remembered.

The lab resets between scenarios by stopping what it started, by process id,
so one scenario's hostapd or daemon never leaks into the next.
"""

import os
import signal
import subprocess
import time
from dataclasses import dataclass


class LabTimeout(AssertionError):
    """A wait ran out of time. An AssertionError so unittest reports it as a failure."""


@dataclass
class CommandResult:
    argv: list
    returncode: int
    stdout: str
    stderr: str

    def check(self):
        if self.returncode != 0:
            raise AssertionError(
                f"{' '.join(self.argv)} exited {self.returncode}\n{self.stdout}{self.stderr}")
        return self


def run(argv, timeout=30, env=None, input=None, netns=None, log=None):
    """Run a command to completion; a command that outlives `timeout` fails the caller."""
    argv = [str(part) for part in argv]
    if netns:
        argv = ["ip", "netns", "exec", netns] + argv
    if log:
        log(f"$ {' '.join(argv)}")
    try:
        completed = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, env=env, input=input,
            errors="replace")
    except subprocess.TimeoutExpired as expired:
        raise LabTimeout(f"{' '.join(argv)} still running after {timeout} s") from expired
    return CommandResult(argv, completed.returncode, completed.stdout, completed.stderr)


def wait_until(predicate, timeout, what, interval=0.1):
    """Poll `predicate` until it returns something true; return that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise LabTimeout(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


class Children:
    """The processes the lab started during one scenario, stopped in reverse order at its end."""

    def __init__(self):
        self._processes = []   # (name, Popen)
        self._pid_files = []   # (name, path) for programs that daemonize themselves

    def spawn(self, name, argv, stdout=None, stderr=None, env=None, netns=None):
        argv = [str(part) for part in argv]
        if netns:
            argv = ["ip", "netns", "exec", netns] + argv
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=stdout or subprocess.DEVNULL,
            stderr=stderr or subprocess.STDOUT, env=env)
        self._processes.append((name, process))
        return process

    def adopt_pid_file(self, name, path):
        self._pid_files.append((name, path))

    def stop_all(self, grace=5):
        for name, path in reversed(self._pid_files):
            pid = _read_pid(path)
            if pid:
                _terminate_pid(pid, grace)
        self._pid_files.clear()
        for name, process in reversed(self._processes):
            stop_process(process, grace)
        self._processes.clear()


def stop_process(process, grace=5, sig=signal.SIGTERM):
    """Signal, wait up to `grace` seconds, then kill. Returns the exit status."""
    if process.poll() is None:
        try:
            process.send_signal(sig)
            return process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
    try:
        return process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        return None


def _read_pid(path):
    try:
        with open(path) as handle:
            return int(handle.read().strip())
    except (OSError, ValueError):
        return None


def _terminate_pid(pid, grace):
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not _alive(pid):
            return
        time.sleep(0.1)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _alive(pid):
    """True while `pid` runs; a zombie nobody reaped (its parent was init) counts as gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
