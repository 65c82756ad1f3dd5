"""A daemon under test, started the way systemd would start a Type=notify service."""

import os
import signal
import subprocess

from . import processes
from .notify import NotifyListener


class Daemon:
    """One run of a daemon: its process, its sd_notify messages and its console output."""

    def __init__(self, argv, log_path, notify_path=None, env=None):
        self.argv = [str(part) for part in argv]
        self.log_path = log_path
        self.notify = NotifyListener(notify_path) if notify_path else None
        environment = dict(os.environ if env is None else env)
        if self.notify:
            environment["NOTIFY_SOCKET"] = self.notify.path
        else:
            environment.pop("NOTIFY_SOCKET", None)
        self._output = open(log_path, "wb")
        self.process = subprocess.Popen(
            self.argv, stdin=subprocess.DEVNULL, stdout=self._output, stderr=subprocess.STDOUT,
            env=environment)
        self.pid = self.process.pid

    def wait_notify(self, key, value=None, timeout=60):
        """Wait for `key`=`value` (or any value) on the notify socket; return the value."""
        if self.notify is None:
            raise AssertionError("this daemon was started without a NOTIFY_SOCKET")
        try:
            return self.notify.wait_for(key, value, timeout)
        except processes.LabTimeout as timeout_error:
            if not self.is_running():
                raise AssertionError(
                    f"{timeout_error}; the daemon exited with status {self.process.returncode}:\n"
                    f"{self.output()}") from None
            raise

    def wait_ready(self, timeout=60):
        return self.wait_notify("READY", "1", timeout)

    def notifications(self, key=None):
        """Everything sent so far as (key, value) pairs, or the values of one key."""
        if self.notify is None:
            return []
        return self.notify.values(key) if key else self.notify.assignments

    def is_running(self):
        return self.process.poll() is None

    def signal(self, sig):
        self.process.send_signal(sig)

    def reload(self):
        self.signal(signal.SIGHUP)

    def wait_exit(self, timeout=60):
        """Wait for the daemon to exit on its own; return its exit status (negative: signal)."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise processes.LabTimeout(f"{self.argv[0]} still running after {timeout} s") from None

    def stop(self, timeout=60):
        """SIGTERM, then wait for the exit status."""
        if self.is_running():
            self.signal(signal.SIGTERM)
        return self.wait_exit(timeout)

    def output(self):
        self._output.flush()
        with open(self.log_path, "rb") as handle:
            return handle.read().decode("utf-8", errors="replace")

    def close(self, grace=5):
        """Make sure nothing outlives the scenario, whatever the test did."""
        processes.stop_process(self.process, grace)
        self._output.close()
        if self.notify:
            self.notify.close()
