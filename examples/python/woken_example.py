#!/usr/bin/python3
"""An app that sleeps until its sensor comes into range, over accessoryd's D-Bus API.

Run by hand once with --observe: asks accessoryd to wake the app when each of its
accessories appears (Session1.ObservePresence; kept with the grant, across reboots).
Started by systemd through the app's wake socket (examples/wake/): accepts the
connections accessoryd made on the socket systemd passes (LISTEN_FDS), reads the
note on each (ACCESSORY=, REASON=, RSSI=, ADVERTISEMENT=), opens a session, reads the
sensor's characteristic over the channel accessoryd hands over, and exits. A later
appearance starts it again.
"""

import argparse
import os
import socket
import sys

from gi.repository import Gio, GLib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accessory_example import NAME, SESSION, Client, read_characteristic, say  # noqa: E402

SD_LISTEN_FDS_START = 3


def notes():
    """The notes waiting on the socket systemd passed: one dict per connection."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or os.environ.get("LISTEN_FDS") != "1":
        return []
    found = []
    with socket.socket(fileno=SD_LISTEN_FDS_START) as listener:
        listener.setblocking(False)
        while True:
            try:
                connection, _ = listener.accept()
            except BlockingIOError:
                return found
            with connection:
                connection.settimeout(5)
                text = b""
                while chunk := connection.recv(4096):
                    text += chunk
            found.append(dict(line.split("=", 1) for line in text.decode(errors="replace").splitlines() if "=" in line))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bus-address", help="a bus other than the system bus (tests)")
    parser.add_argument("--observe", choices=["yes", "no"], help="ask (or stop asking) to be woken, then exit")
    parser.add_argument("--characteristic", default="2A19", help="the characteristic UUID to read when woken")
    options = parser.parse_args()

    woken = notes()  # first: the connections are only taken once
    for note in woken:
        say(f"woken: {note.get('ACCESSORY', '?')} {note.get('REASON', '?')} rssi={note.get('RSSI', '?')}")

    if options.bus_address:
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(options.bus_address, flags, None, None)
    else:
        connection = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    client = Client(connection)

    if options.observe:
        for path in client.accessories:
            client.observe_presence(path, options.observe == "yes")
            say(f"observing {path.rsplit('/', 1)[1]}: {options.observe}")
        client.session_call("Invalidate")
        return 0

    for path in dict.fromkeys(note.get("ACCESSORY") for note in woken):
        if path not in client.accessories:
            continue  # removed since the wake
        (handle,), fds = client.call(NAME, client.session, SESSION, "OpenBluetoothChannel",
                                    ("oq", (path, 0)), "(h)", fds=Gio.UnixFDList())
        value = read_characteristic(fds.get(handle), options.characteristic)
        say(f'read: {path.rsplit("/", 1)[1]} {options.characteristic} = "{value.decode(errors="replace")}"')
    client.session_call("Invalidate")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (GLib.Error, OSError) as error:
        print(f"woken_example.py: {error}", file=sys.stderr)
        sys.exit(1)
