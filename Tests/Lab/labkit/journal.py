"""Reading the VM's journal the way an administrator would: journalctl, filtered by fields.

Each scenario remembers a cursor when it starts, so it sees only its own entries
even though journald runs for the whole boot.
"""

import json
import subprocess
import time

from . import processes

JOURNALCTL = "journalctl"


def current_cursor():
    """The cursor of the newest entry, or None while the journal is still empty."""
    result = processes.run([JOURNALCTL, "--no-pager", "-n", "0", "--show-cursor"], timeout=20)
    for line in result.stdout.splitlines():
        if line.startswith("-- cursor: "):
            return line[len("-- cursor: "):].strip()
    return None


def sync():
    """Ask journald to write out everything it has received (best effort)."""
    processes.run([JOURNALCTL, "--sync"], timeout=20)


def entries(after_cursor=None, matches=None, timeout=20):
    """Entries after the cursor whose fields equal `matches` (journalctl's own matching)."""
    argv = [JOURNALCTL, "--no-pager", "-o", "json"]
    if after_cursor:
        argv += ["--after-cursor", after_cursor]
    argv += [f"{key}={value}" for key, value in (matches or {}).items()]
    result = processes.run(argv, timeout=timeout)
    found = []
    for line in result.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            found.append(normalize(json.loads(line)))
    return found


def wait_for(after_cursor, matches, timeout=30, count=1):
    """Wait until at least `count` matching entries exist; return them all."""
    deadline = time.monotonic() + timeout
    while True:
        found = entries(after_cursor, matches)
        if len(found) >= count:
            return found
        if time.monotonic() >= deadline:
            filters = " ".join(f"{key}={value}" for key, value in matches.items())
            raise processes.LabTimeout(
                f"journal has {len(found)} entries matching {filters} after {timeout} s, wanted {count}")
        time.sleep(0.25)


def export(after_cursor, path, timeout=60):
    """Write the scenario's entries in journald's export format, for the evidence folder."""
    argv = [JOURNALCTL, "--no-pager", "-o", "export"]
    if after_cursor:
        argv += ["--after-cursor", after_cursor]
    with open(path, "wb") as handle:
        subprocess.run(argv, stdout=handle, stderr=subprocess.DEVNULL, timeout=timeout, check=False)


def short(after_cursor=None, matches=None, timeout=20):
    """Entries as journalctl prints them for people (-o short-precise)."""
    argv = [JOURNALCTL, "--no-pager", "-o", "short-precise"]
    if after_cursor:
        argv += ["--after-cursor", after_cursor]
    argv += [f"{key}={value}" for key, value in (matches or {}).items()]
    return processes.run(argv, timeout=timeout).stdout


def normalize(entry):
    """journalctl -o json writes a field that repeats as a list and a binary value as a
    list of byte values; turn both into text so tests compare strings."""
    clean = {}
    for key, value in entry.items():
        if isinstance(value, list) and value and all(isinstance(item, int) for item in value):
            value = bytes(value).decode("utf-8", errors="replace")
        elif isinstance(value, list):
            value = [bytes(item).decode("utf-8", errors="replace") if isinstance(item, list) else item
                     for item in value]
        clean[key] = value
    return clean
