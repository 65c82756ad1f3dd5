#!/usr/bin/python3
"""One app floods accessoryd while another app's decisions must all reach the journal.

Run as root inside the booted image, with accessoryd running under systemd
(journald's real rate limit applies) and two app users that have manifests:

    python3 flood.py --flooder USER --other USER [--seconds 35] [--requests 35000] [--max-lines 400]

What it does: the flooder (run as USER through setpriv) opens a session and
sends Migrate/DismissPicker pairs as fast as it can, up to --requests calls
in --seconds. Meanwhile the other app asks for a migration once a second and
this script, as the administrator, denies each (Admin1.Deny): every one is a
decision accessoryd must write (REQUEST_DENIED, with REQUEST=N).

What it asserts (exit status 0 only if all hold; one line each on stdout,
"FLOOD PASS ..." or "FLOOD FAIL ..."; the last line is a JSON summary):
  1. the flooder was refused past the bound: some answers were
     org.accessoryagent.Error.invalidRequest naming RequestsPerMinute;
  2. accessoryd wrote at most --max-lines journal lines in the window
     (journalctl -u accessoryd.service, from a cursor taken before);
  3. every denial of the other app's requests is in the journal
     (MESSAGE_ID=REQUEST_DENIED with that REQUEST), none dropped.
It asserts nothing about how long anything took; the number of calls the
flooder managed is reported, not judged.
"""

import argparse
import json
import os
import subprocess
import sys
import time

REQUEST_DENIED = "9342c212d42647619b55025c26f248ce"
SERVICE = "accessoryd.service"
ROOT = "/org/accessoryagent"
MANAGER = "org.accessoryagent.Manager1"
SESSION = "org.accessoryagent.Session1"
ADMIN = "org.accessoryagent.Admin1"


def bus_interface(bus, path, interface):
    import dbus
    return dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface)


def migration_item(address):
    import dbus
    return dbus.Array([dbus.Struct(("Flood", address, "", dbus.Dictionary({}, signature="ss")))], signature="(sssa{ss})")


def flooder(seconds, requests):
    """As the flooding app: Migrate/DismissPicker until the time or the count is up."""
    import dbus
    bus = dbus.SystemBus()
    session = bus_interface(bus, bus_interface(bus, ROOT, MANAGER).OpenSession(), SESSION)
    session.Activate()
    sent = accepted = refused = other = 0
    end = time.monotonic() + seconds
    item = migration_item("C0:FF:EE:00:F1:00")
    while sent < requests and time.monotonic() < end:
        try:
            session.Migrate(item)
            accepted += 1
        except dbus.DBusException as e:
            if "RequestsPerMinute" in e.get_dbus_message():
                refused += 1
            else:
                other += 1
        sent += 1
        try:
            session.DismissPicker()
        except dbus.DBusException:
            pass
        sent += 1
    print(json.dumps({"sent": sent, "accepted": accepted, "refused": refused, "other": other}), flush=True)


def other_app(seconds, ready_file):
    """As the other app: one migration a second, each to be denied by the administrator."""
    import dbus
    bus = dbus.SystemBus()
    session = bus_interface(bus, bus_interface(bus, ROOT, MANAGER).OpenSession(), SESSION)
    session.Activate()
    end = time.monotonic() + seconds
    asked = 0
    while time.monotonic() < end:
        try:
            session.Migrate(migration_item("C0:FF:EE:00:F2:%02X" % (asked % 256)))
            asked += 1
            open(ready_file, "a").write("asked\n")
        except dbus.DBusException as e:
            print("other app refused: " + e.get_dbus_message(), file=sys.stderr, flush=True)
        time.sleep(1)
        try:
            session.DismissPicker()     # only if the administrator has not decided yet
        except dbus.DBusException:
            pass
    print(json.dumps({"asked": asked}), flush=True)


def as_user(user, role, arguments):
    import pwd
    gid = pwd.getpwnam(user).pw_gid
    return subprocess.Popen(["setpriv", f"--reuid={user}", f"--regid={gid}", "--init-groups",
                             sys.executable, os.path.abspath(__file__), "--role", role] + arguments,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def journal_cursor():
    out = subprocess.run(["journalctl", "--show-cursor", "-n", "0", "--no-pager"], capture_output=True, text=True).stdout
    return out.strip().rsplit("cursor: ", 1)[-1]


def journal(cursor, *matches):
    out = subprocess.run(["journalctl", "--no-pager", "-o", "json", "-u", SERVICE, f"--after-cursor={cursor}", *matches],
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def administrator(seconds, other_app_process):
    """Denies every request of the other app while it runs; returns the request numbers denied."""
    import dbus
    admin = bus_interface(dbus.SystemBus(), ROOT, ADMIN)
    denied = []
    while other_app_process.poll() is None:
        for number, app, kind, items, count in admin.ListRequests():
            if str(app) == arguments.other_app and int(number) not in denied:
                try:
                    admin.Deny(number)
                    denied.append(int(number))
                except dbus.DBusException:
                    pass            # withdrawn just before
        time.sleep(0.2)
    return denied


def main():
    global arguments
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["flooder", "other"])
    parser.add_argument("--flooder")
    parser.add_argument("--other")
    parser.add_argument("--other-app", dest="other_app", help="the other app's name (default: its user's name)")
    parser.add_argument("--seconds", type=float, default=35)
    parser.add_argument("--requests", type=int, default=35000)
    parser.add_argument("--max-lines", type=int, default=400)
    parser.add_argument("--ready-file", default="/run/flood-other-asked")
    arguments = parser.parse_args()
    if arguments.role == "flooder":
        return flooder(arguments.seconds, arguments.requests)
    if arguments.role == "other":
        return other_app(arguments.seconds, arguments.ready_file)
    arguments.other_app = arguments.other_app or arguments.other

    cursor = journal_cursor()
    common = ["--seconds", str(arguments.seconds), "--requests", str(arguments.requests), "--ready-file", arguments.ready_file]
    other = as_user(arguments.other, "other", common)
    flood = as_user(arguments.flooder, "flooder", common)
    denied = administrator(arguments.seconds, other)
    flood_out, flood_err = flood.communicate(timeout=arguments.seconds + 120)
    other_out, other_err = other.communicate(timeout=60)
    time.sleep(2)   # journald has what was sent before it (a sync, not a judgement of time)
    subprocess.run(["journalctl", "--sync"], capture_output=True)

    failures = []
    summary = {"denied": len(denied)}
    try:
        summary.update(json.loads(flood_out.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        failures.append(f"the flooder said nothing readable: {flood_err.strip()[-300:]}")
    lines = journal(cursor)
    summary["journal_lines"] = len(lines)
    logged = {int(entry.get("REQUEST", -1)) for entry in journal(cursor, f"MESSAGE_ID={REQUEST_DENIED}")
              if "administrator" in entry.get("DECIDED_BY", "")}
    missing = sorted(set(denied) - logged)

    def report(ok, text):
        print(("FLOOD PASS " if ok else "FLOOD FAIL ") + text, flush=True)
        if not ok:
            failures.append(text)

    report(summary.get("refused", 0) > 0, f"the flooder was refused past the bound: {summary.get('refused', 0)} of {summary.get('sent', 0)} calls refused naming RequestsPerMinute")
    report(len(lines) <= arguments.max_lines, f"accessoryd wrote {len(lines)} journal lines in the window (at most {arguments.max_lines})")
    report(bool(denied) and not missing, f"{len(denied)} denials of {arguments.other_app}'s requests, {len(missing)} missing from the journal {missing[:10]}")
    print(json.dumps(summary), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main() or 0)
