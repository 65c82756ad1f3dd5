#!/usr/bin/python3
"""One app floods accessoryd while another app's decisions must all reach the journal.

Run as root inside the booted image, with accessoryd running under systemd
(journald's real rate limit applies) and two app users that have manifests:

    python3 flood.py --flooder USER --other USER [--seconds 35] [--requests 35000] [--max-lines 400]

What it does:
- The flooder (run as USER through setpriv) opens a session and sends --requests
  calls in --seconds, paced evenly: Session1.Migrate, with a DismissPicker every
  50th call (so an accepted request is withdrawn and the next may be accepted).
  It speaks the wire protocol itself (buswire.py): every call is marshalled before
  the clock starts, then written in slices as they fall due, and replies are read
  as they come. dbus-daemon's system bus allows 128 calls awaiting a reply per
  connection (max_replies_per_connection): one call in every --requests/--window
  awaits one (a sample, at most --window in all), the others carry
  NO_REPLY_EXPECTED: still requests accessoryd must take and refuse, but ones
  nobody counts an answer for. After the last call, a Ping on the same connection
  (answered in order) says when accessoryd has read them all.
- Meanwhile the other app (dbus-python, as USER) asks for a migration whenever
  this script tells it to, and this script, as the administrator, decides each
  with accessoryctl: approve, deny, approve, deny ... until the flood ends. Every
  one is a decision accessoryd must write (ACCESSORIES_MIGRATED or REQUEST_DENIED,
  with REQUEST=N and DECIDED_BY=administrator ...).

What it asserts (exit status 0 only if all hold; one line each on stdout,
"FLOOD PASS ..." or "FLOOD FAIL ..."; the last line is a JSON summary):
  1. the flooder was refused past the bound: some answers were
     org.accessoryagent.Error.invalidRequest naming RequestsPerMinute;
  2. accessoryd wrote at most --max-lines journal lines in the window
     (journalctl -u accessoryd.service, from a cursor taken before);
  3. every decision on the other app's requests is in the journal, none dropped,
     and there were at least --min-decisions of them, approvals and denials both.
It asserts nothing about how long anything took; how many calls the flooder sent
and when, and how many were answered, refused and lost, is reported, not judged.
"""

import argparse
import json
import os
import select
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import buswire  # noqa: E402

REQUEST_DENIED = "9342c212d42647619b55025c26f248ce"
ACCESSORIES_MIGRATED = "3f4aabc1046e4a2daaa62fdeac4642d1"
SERVICE = "accessoryd.service"
NAME = "org.accessoryagent"
ROOT = "/org/accessoryagent"
MANAGER = "org.accessoryagent.Manager1"
SESSION = "org.accessoryagent.Session1"
ADMIN = "org.accessoryagent.Admin1"
PEER = "org.freedesktop.DBus.Peer"


def flooder(seconds, requests, window):
    """As the flooding app: --requests calls in --seconds, pipelined on one connection.

    Every call is marshalled before the clock starts (the serials are sequential), so
    the window itself only writes slices of one buffer: under emulation Python's own
    cost per call would otherwise be the bound. One call in every `requests / window`
    awaits a reply (a sample, never more than --window awaiting at once, below the
    bus's 128); the others carry NO_REPLY_EXPECTED."""
    bus = buswire.WireConnection()
    kind, session = bus.call(NAME, ROOT, MANAGER, "OpenSession")
    if kind != buswire.METHOD_RETURN:
        raise SystemExit(f"OpenSession: {session}")
    kind, answer = bus.call(NAME, session, SESSION, "Activate")
    if kind != buswire.METHOD_RETURN:
        raise SystemExit(f"Activate: {answer}")
    body, signature = buswire.migration_items([("Flood", "C0:FF:EE:00:F1:00", "")])
    templates = {}
    for member, member_body, member_signature in (("Migrate", body, signature), ("DismissPicker", b"", "")):
        for flags in (0, buswire.NO_REPLY_EXPECTED):
            templates[member, flags] = buswire.method_call(0, NAME, session, SESSION, member, member_body, member_signature, flags)
    every = max(1, -(-requests // window))
    counts = {"sent": 0, "migrate": 0, "dismiss": 0, "awaiting_reply": 0, "no_reply": 0, "answered": 0, "accepted": 0,
              "refused_rate": 0, "refused_other": 0, "bus_errors": 0, "other_errors": 0}
    awaiting = set()
    chunks, offsets = [], [0]
    for number in range(requests):
        member = "DismissPicker" if number % 50 == 49 else "Migrate"
        counts["dismiss" if member == "DismissPicker" else "migrate"] += 1
        serial = bus.next_serial()
        sampled = number % every == 0
        message = bytearray(templates[member, 0 if sampled else buswire.NO_REPLY_EXPECTED])
        struct.pack_into("<I", message, 8, serial)
        if sampled:
            awaiting.add(serial)
        chunks.append(message)
        offsets.append(offsets[-1] + len(message))
    counts["awaiting_reply"] = len(awaiting)
    counts["no_reply"] = requests - len(awaiting)
    stream = memoryview(b"".join(chunks))
    del chunks
    examples = {}

    def account(replies):
        for reply in replies:
            if reply.reply_serial not in awaiting:
                continue                    # a signal, or the barrier's answer
            awaiting.discard(reply.reply_serial)
            counts["answered"] += 1
            if reply.kind == buswire.METHOD_RETURN:
                counts["accepted"] += 1
            elif reply.error.startswith("org.freedesktop.DBus.Error."):
                counts["bus_errors"] += 1
                examples.setdefault("bus_error", reply.error + ": " + buswire.first_string(reply.raw)[:200])
            elif b"RequestsPerMinute" in reply.raw:
                counts["refused_rate"] += 1
                examples.setdefault("refused_rate", buswire.first_string(reply.raw)[:200])
            elif reply.error.startswith("org.accessoryagent.Error."):
                counts["refused_other"] += 1
                examples.setdefault("refused_other", reply.error + ": " + buswire.first_string(reply.raw)[:200])
            else:
                counts["other_errors"] += 1

    start = time.monotonic()
    end = start + seconds
    sent = 0
    while sent < requests:
        now = time.monotonic()
        if now >= end:
            break
        due = min(requests, int((now - start) * requests / seconds) + 1)
        if due > sent:
            bus.send(stream[offsets[sent]:offsets[due]])
            sent = due
        account(bus.messages(block=False))
        pause = start + sent * seconds / requests - time.monotonic()
        if pause > 0:
            select.select([bus.socket], [], [], min(pause, 0.05))
    counts["sent"] = sent
    counts["seconds_sending"] = round(time.monotonic() - start, 2)
    # Answered in order on this connection: once the Ping is, accessoryd has read every call before it.
    barrier = bus.next_serial()
    bus.send(buswire.method_call(barrier, NAME, session, PEER, "Ping"))
    drained = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not drained:
        ready, _, _ = select.select([bus.socket], [], [], 1)
        if ready:
            replies = bus.messages(block=False)
            drained = any(reply.reply_serial == barrier for reply in replies)
            account(replies)
    counts["seconds_until_all_read"] = round(time.monotonic() - start, 2) if drained else None
    counts["unanswered"] = len(awaiting)
    counts["examples"] = examples
    print(json.dumps(counts), flush=True)


def other_app():
    """As the other app: one migration each time stdin says "ask"; prints what happened."""
    import dbus
    bus = dbus.SystemBus()

    def interface(path, name):
        return dbus.Interface(bus.get_object(NAME, path, introspect=False), name)
    session = interface(interface(ROOT, MANAGER).OpenSession(), SESSION)
    session.Activate()
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] != "ask":
            break
        item = dbus.Array([dbus.Struct((f"Other {words[1]}", "C0:FF:EE:00:F2:%02X" % (int(words[1]) % 256), "",
                                        dbus.Dictionary({}, signature="ss")))], signature="(sssa{ss})")
        try:
            session.Migrate(item, timeout=120)
            print("asked", flush=True)
        except dbus.DBusException as e:
            print("refused " + e.get_dbus_message().replace("\n", " "), flush=True)


def as_user(user, role, arguments, stdin=None):
    import pwd
    gid = pwd.getpwnam(user).pw_gid
    return subprocess.Popen(["setpriv", f"--reuid={user}", f"--regid={gid}", "--init-groups",
                             sys.executable, os.path.abspath(__file__), "--role", role] + arguments,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def journal_cursor():
    out = subprocess.run(["journalctl", "--show-cursor", "-n", "0", "--no-pager"], capture_output=True, text=True).stdout
    return out.strip().rsplit("cursor: ", 1)[-1]


def journal(cursor, *matches):
    out = subprocess.run(["journalctl", "--no-pager", "-o", "json", "-u", SERVICE, f"--after-cursor={cursor}", *matches],
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def administrator(other, other_app_name, flood, rounds):
    """Has the other app ask, then decides its request with accessoryctl (approve, deny, in
    turn) until the flooder is done; returns [(request number, "approve"|"deny", note)]."""
    import dbus
    admin = dbus.Interface(dbus.SystemBus().get_object(NAME, ROOT, introspect=False), ADMIN)
    decisions = []
    notes = []
    if other.stdout.readline().strip() != "ready":
        return decisions, ["the other app did not open its session: " + other.stderr.read()[-300:]]
    number = 0
    while flood.poll() is None and number < rounds:
        other.stdin.write(f"ask {number}\n")
        other.stdin.flush()
        said = other.stdout.readline().strip()
        if said != "asked":
            notes.append(f"round {number}: the other app's Migrate: {said}")
            number += 1
            time.sleep(1)
            continue
        pending = [int(row[0]) for row in admin.ListRequests(timeout=120) if str(row[1]) == other_app_name]
        if not pending:
            notes.append(f"round {number}: no pending request of {other_app_name}")
            number += 1
            continue
        request = pending[-1]
        verb = "approve" if number % 2 == 0 else "deny"
        command = ["accessoryctl", verb, str(request)] + (["0"] if verb == "approve" else [])
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode == 0:
            decisions.append((request, verb))
        else:
            notes.append(f"{' '.join(command)} exited {done.returncode}: {(done.stderr or done.stdout).strip()[:200]}")
        number += 1
    other.stdin.write("quit\n")
    other.stdin.flush()
    return decisions, notes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["flooder", "other"])
    parser.add_argument("--flooder")
    parser.add_argument("--other")
    parser.add_argument("--other-app", dest="other_app", help="the other app's name (default: its user's name)")
    parser.add_argument("--seconds", type=float, default=35)
    parser.add_argument("--requests", type=int, default=35000)
    parser.add_argument("--window", type=int, default=100, help="calls awaiting a reply at most (the bus allows 128)")
    parser.add_argument("--max-lines", type=int, default=400)
    parser.add_argument("--min-decisions", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=40, help="decisions on the other app at most")
    arguments = parser.parse_args()
    if arguments.role == "flooder":
        return flooder(arguments.seconds, arguments.requests, arguments.window)
    if arguments.role == "other":
        return other_app()
    other_app_name = arguments.other_app or arguments.other

    cursor = journal_cursor()
    other = as_user(arguments.other, "other", [], stdin=subprocess.PIPE)
    flood = as_user(arguments.flooder, "flooder", ["--seconds", str(arguments.seconds), "--requests", str(arguments.requests),
                                                  "--window", str(arguments.window)])
    decisions, notes = administrator(other, other_app_name, flood, arguments.rounds)
    flood_out, flood_err = flood.communicate(timeout=arguments.seconds + 360)
    other_out, other_err = other.communicate(timeout=60)
    subprocess.run(["journalctl", "--sync"], capture_output=True)

    failures = []
    summary = {"decisions": len(decisions), "approved": sum(1 for _, verb in decisions if verb == "approve"),
               "denied": sum(1 for _, verb in decisions if verb == "deny"), "notes": notes[:10]}
    try:
        summary["flood"] = json.loads(flood_out.strip().splitlines()[-1])
    except (IndexError, ValueError):
        summary["flood"] = {}
        failures.append(f"the flooder said nothing readable: {flood_err.strip()[-300:]}")
    counts = summary["flood"]
    lines = journal(cursor)
    summary["journal_lines"] = len(lines)
    summary["journal_lines_about_flooder"] = sum(1 for entry in lines if arguments.flooder in str(entry.get("MESSAGE", "")))
    logged = {(int(entry.get("REQUEST", -1)), "deny") for entry in journal(cursor, f"MESSAGE_ID={REQUEST_DENIED}")
              if "administrator" in str(entry.get("DECIDED_BY", ""))}
    logged |= {(int(entry.get("REQUEST", -1)), "approve") for entry in journal(cursor, f"MESSAGE_ID={ACCESSORIES_MIGRATED}")
               if "administrator" in str(entry.get("DECIDED_BY", ""))}
    missing = [decision for decision in decisions if decision not in logged]

    def report(ok, text):
        print(("FLOOD PASS " if ok else "FLOOD FAIL ") + text, flush=True)
        if not ok:
            failures.append(text)

    report(counts.get("refused_rate", 0) > 0,
           f"the flooder sent {counts.get('sent', 0)} calls in {counts.get('seconds_sending')} s, all read by accessoryd "
           f"{counts.get('seconds_until_all_read')} s after the start; of the {counts.get('answered', 0)} sampled calls "
           f"answered (1 in {max(1, -(-arguments.requests // arguments.window))}) {counts.get('refused_rate', 0)} were refused "
           f"naming RequestsPerMinute, {counts.get('accepted', 0)} accepted, {counts.get('refused_other', 0)} refused "
           f"otherwise, {counts.get('bus_errors', 0)} bus errors")
    report(len(lines) <= arguments.max_lines,
           f"accessoryd wrote {len(lines)} journal lines in the window (at most {arguments.max_lines}), "
           f"{summary['journal_lines_about_flooder']} of them naming {arguments.flooder}")
    report(len(decisions) >= arguments.min_decisions and summary["approved"] and summary["denied"] and not missing,
           f"{len(decisions)} decisions on {other_app_name}'s requests ({summary['approved']} approved, "
           f"{summary['denied']} denied, at least {arguments.min_decisions} wanted), {len(missing)} missing from the journal "
           f"{missing[:10]}" + (f"; {'; '.join(notes[:3])}" if notes else ""))
    print(json.dumps(summary), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main() or 0)
