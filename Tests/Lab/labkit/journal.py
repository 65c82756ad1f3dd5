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
    """Entries after the cursor whose fields equal `matches` (journalctl's own matching).

    journalctl 252 returns nothing when --after-cursor is combined with field
    matches (seen in the lab), so the cursor is applied here, by sequence number."""
    argv = [JOURNALCTL, "--no-pager", "-o", "json"]
    argv += [f"{key}={value}" for key, value in (matches or {}).items()]
    result = processes.run(argv, timeout=timeout)
    start = sequence_number(after_cursor) if after_cursor else -1
    found = []
    for line in result.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            entry = normalize(json.loads(line))
            if sequence_number(entry.get("__CURSOR", "")) > start:
                found.append(entry)
    return found


def sequence_number(cursor):
    """The i= part of a cursor: journald's sequence number, growing through the whole boot."""
    for part in cursor.split(";"):
        if part.startswith("i="):
            return int(part[2:], 16)
    return -1


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
    """Entries as people read them: time, identifier[pid]: message."""
    lines = []
    for entry in entries(after_cursor, matches, timeout):
        microseconds = int(entry.get("__REALTIME_TIMESTAMP", "0"))
        stamp = time.strftime("%H:%M:%S", time.gmtime(microseconds // 1000000)) + f".{microseconds % 1000000:06d}"
        identifier = entry.get("SYSLOG_IDENTIFIER", entry.get("_COMM", "?"))
        lines.append(f"{stamp} {identifier}[{entry.get('_PID', '?')}]: {entry.get('MESSAGE', '')}")
    return "\n".join(lines) + ("\n" if lines else "")


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
