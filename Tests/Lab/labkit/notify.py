"""The service manager's side of sd_notify: a datagram socket a daemon reports its state to.

The daemon finds it through NOTIFY_SOCKET, sends "READY=1", "STATUS=...",
"STOPPING=1" (newline-separated assignments, one datagram per sd_notify call),
and a test waits for them with a timeout.
"""

import os
import socket
import threading
import time

from .processes import LabTimeout


class NotifyListener:
    def __init__(self, path):
        self.path = path
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(path)
        self._socket.settimeout(0.2)
        self._assignments = []  # (key, value) in arrival order
        self._condition = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._receive, name=f"notify {path}", daemon=True)
        self._thread.start()

    @property
    def assignments(self):
        with self._condition:
            return list(self._assignments)

    def values(self, key):
        return [value for name, value in self.assignments if name == key]

    def wait_for(self, key, value=None, timeout=30):
        """Wait until the daemon sent `key` (and `value` if given); return the value sent."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while True:
                for name, sent in self._assignments:
                    if name == key and (value is None or sent == value):
                        return sent
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    got = ", ".join(f"{k}={v}" for k, v in self._assignments) or "nothing"
                    wanted = f"{key}={value}" if value is not None else f"{key}="
                    raise LabTimeout(
                        f"no {wanted} on NOTIFY_SOCKET within {timeout} s (received: {got})")
                self._condition.wait(remaining)

    def close(self):
        self._closed = True
        self._thread.join(timeout=2)
        self._socket.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def _receive(self):
        while not self._closed:
            try:
                datagram = self._socket.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            text = datagram.decode("utf-8", errors="replace")
            with self._condition:
                for line in text.split("\n"):
                    if "=" in line:
                        key, value = line.split("=", 1)
                        self._assignments.append((key, value))
                self._condition.notify_all()
