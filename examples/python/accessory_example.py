#!/usr/bin/python3
"""What accessory-example does, in Python over accessoryd's D-Bus API (GDBus via PyGObject).

Opens a session, asks for a Bluetooth LE sensor and a Wi-Fi accessory (one picker
each, skipped when the app already has one), waits for the administrator's approval,
reads the sensor's characteristic over the socket accessoryd hands over (ATT, spoken
here), joins the accessory's hotspot and fetches a page from it, then prints presence
changes for a while. Needs no privilege: accessoryd does the radio work for it.
A restart of accessoryd while following is ridden through: once its bus name has an
owner again, a new session is opened and activated (the grants were kept), the app
says so once (ServiceRestarted) and reads its sensor again over a new channel.
"""

import argparse
import http.client
import signal
import socket
import struct
import sys
import urllib.parse
import uuid

from gi.repository import Gio, GLib

NAME = "org.accessoryagent"
ROOT = "/org/accessoryagent"
MANAGER = NAME + ".Manager1"
SESSION = NAME + ".Session1"
ACCESSORY = NAME + ".Accessory1"
BUS = "org.freedesktop.DBus"


def say(line):
    print(line, flush=True)


class Client:
    """The app's view of accessoryd: one session, and only signals its bus name's owner sent."""

    def __init__(self, connection):
        self.bus = connection
        self.events = []  # (signal name, arguments), in order
        self.lost = None  # why accessoryd's name changed hands, once it did
        self.back = None  # the new owner of the name, once accessoryd is back after leaving
        self.restarts = 0  # sessions opened again after a restart
        self.reactivated = False  # the new session's Activated is the restart, told once already
        self.present = {}  # accessory path -> Present, as last printed
        self.subscriptions = []
        # Follow the name first, then ask who owns it: no change can slip in between.
        self.bus.signal_subscribe(BUS, BUS, "NameOwnerChanged", "/org/freedesktop/DBus", NAME,
                                  Gio.DBusSignalFlags.NONE, self._owner_changed)
        self.open(self.call(BUS, "/org/freedesktop/DBus", BUS, "GetNameOwner", ("s", (NAME,)), "(s)")[0])
        say(f"activated: {len(self.accessories)} accessories")

    def open(self, owner):
        """A session with the accessoryd that is `owner`, activated; its signals only believed."""
        self.owner = owner
        say(f"accessoryd is {self.owner}")
        for subscription in self.subscriptions:
            self.bus.signal_unsubscribe(subscription)
        # Anyone on the bus may send a signal that looks like accessoryd's; only the
        # unique name owning org.accessoryagent is believed (the bus sets the sender).
        self.subscriptions = [
            self.bus.signal_subscribe(self.owner, SESSION, None, None, None, Gio.DBusSignalFlags.NONE,
                                      self._session_signal),
            self.bus.signal_subscribe(self.owner, "org.freedesktop.DBus.Properties", "PropertiesChanged", None,
                                      ACCESSORY, Gio.DBusSignalFlags.NONE, self._properties_changed),
        ]
        self.session = self.call(NAME, ROOT, MANAGER, "OpenSession", None, "(o)")[0]
        self.accessories = self.call(NAME, self.session, SESSION, "Activate", None, "(ao)")[0]

    def call(self, name, path, interface, method, arguments=None, reply="()", timeout=30, fds=None):
        """A method call; its reply unpacked (with the reply's fd list when fds is given)."""
        parameters = GLib.Variant("(" + arguments[0] + ")", arguments[1]) if arguments else None
        if fds is None:
            result = self.bus.call_sync(name, path, interface, method, parameters, GLib.VariantType(reply),
                                        Gio.DBusCallFlags.NONE, timeout * 1000, None)
            return result.unpack()
        result, out_fds = self.bus.call_with_unix_fd_list_sync(
            name, path, interface, method, parameters, GLib.VariantType(reply), Gio.DBusCallFlags.NONE,
            timeout * 1000, fds, None)
        return result.unpack(), out_fds

    def session_call(self, method, arguments=None, reply="()", timeout=30):
        return self.call(NAME, self.session, SESSION, method, arguments, reply, timeout)

    def observe_presence(self, path, observe=True):
        """Asks accessoryd to wake this app (its manifest's WakeSocket=) when the accessory
        appears while the app has no session; kept with the grant, across reboots."""
        self.session_call("ObservePresence", ("ob", (path, observe)))

    def property(self, path, name):
        return self.call(NAME, path, "org.freedesktop.DBus.Properties", "Get", ("ss", (ACCESSORY, name)), "(v)")[0]

    def _owner_changed(self, bus, sender, path, interface, member, parameters):
        _, old, new = parameters.unpack()
        if old == self.owner and new != self.owner:
            # A restarted accessoryd knows nothing of this session: start again.
            self.lost = f"accessoryd left the bus ({old} -> {new or 'nobody'})"
        if new and new != self.owner:
            self.back = new

    def reopen(self):
        """After a restart: a new session with the new accessoryd, told once."""
        self.open(self.back)
        self.lost = self.back = None
        self.restarts += 1
        self.reactivated = True
        self.present = {}
        say(f"event: ServiceRestarted ({len(self.accessories)} accessories)")

    def _session_signal(self, bus, sender, path, interface, member, parameters):
        if sender != self.owner or path != self.session:
            return
        if member == "Activated" and self.reactivated:
            self.reactivated = False
            return
        arguments = parameters.unpack()
        say(f"event: {member}{arguments if member != 'AccessoryDiscovered' else arguments[:3]}")
        self.events.append((member, arguments))

    def _properties_changed(self, bus, sender, path, interface, member, parameters):
        _, changed, _ = parameters.unpack()
        if sender == self.owner and "Present" in changed:
            self.show_presence(path, changed["Present"])

    def show_presence(self, path, present):
        if self.present.get(path) != present:
            self.present[path] = present
            say(f"presence: {path.rsplit('/', 1)[1]} present={'yes' if present else 'no'}")

    def wait(self, done, seconds, ride_restarts=False):
        """Runs the main loop (signals) until done() or the time is up; done()'s last value.
        A restart of accessoryd ends the wait with an error, or, with ride_restarts, is
        waited through: the session is opened again once accessoryd is back."""
        context = GLib.MainContext.default()
        expired = []
        timer = GLib.timeout_add_seconds(seconds, lambda: expired.append(True) or False)
        while not done() and not expired and (ride_restarts or not self.lost):
            context.iteration(True)
            if ride_restarts and self.back:
                self.reopen()
        if not expired:
            GLib.source_remove(timer)
        if self.lost:
            raise OSError(self.lost)
        return done()

    def pick(self, item_name, descriptor, kind):
        """One picker with one item; the accessory added, or None."""
        for path in self.accessories:
            if self.property(path, kind):
                say(f"already have {path.rsplit('/', 1)[1]} for {item_name}")
                return path
        start = len(self.events)
        self.session_call("ShowPicker", ("a(ssa{ss}asas)a{ss}", ([(item_name, "", descriptor, [], [])], {})))
        say(f"picker shown for {item_name}; waiting for approval")
        dismissed = lambda: next((a for m, a in self.events[start:] if m == "PickerDidDismiss"), None)
        error, message = self.wait(dismissed, 600) or ("timed out", "no answer")
        added = [a[0] for m, a in self.events[start:] if m == "AccessoryAdded"]
        if error or not added:
            say(f"picker for {item_name} ended without an accessory: {error} {message}")
            return None
        self.accessories.append(added[0])
        return added[0]


def uuid_bytes(text):
    """A Bluetooth UUID as ATT carries it: little-endian, 2 octets for a 16-bit one, else 16."""
    if len(text) == 4:
        return struct.pack("<H", int(text, 16))
    return uuid.UUID(text).bytes[::-1]


def att_request(channel, request, response_opcode):
    """Sends one ATT request and returns the matching response's parameters."""
    channel.send(request)
    while True:
        pdu = channel.recv(512)
        if not pdu:
            raise OSError("the channel was closed")
        if pdu[0] == response_opcode:
            return pdu[1:]
        if pdu[0] == 0x01 and pdu[1] == request[0]:  # Error Response
            raise OSError(f"ATT error 0x{pdu[4]:02x} for request 0x{request[0]:02x}")
        # Anything else (a notification, say) is not an answer: wait on.


def read_characteristic(fd, characteristic):
    """Read Using Characteristic UUID (Core Spec Vol 3 Part G 4.8.2): an ATT Read By Type
    Request over all handles finds the value's handle; a Read Request reads it whole."""
    with socket.socket(fileno=fd) as channel:  # AF_BLUETOOTH, SOCK_SEQPACKET: one PDU per recv
        channel.settimeout(15)
        answer = att_request(channel, struct.pack("<BHH", 0x08, 0x0001, 0xFFFF) + uuid_bytes(characteristic), 0x09)
        handle = struct.unpack_from("<H", answer, 1)[0]  # answer: length, then handle + value pairs
        return att_request(channel, struct.pack("<BH", 0x0A, handle), 0x0B)


def fetch(url, source_address):
    """GET url, from the address the join gave us: the request leaves through the hotspot."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=20,
                                            source_address=(source_address, 0))
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        body = response.read().decode(errors="replace")
        if response.status != 200:
            raise OSError(f"{url}: {response.status} {response.reason}")
        return body
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bus-address", help="a bus other than the system bus (tests)")
    parser.add_argument("--service", required=True, help="the sensor's service UUID")
    parser.add_argument("--name", required=True, help="the sensor's name, as the app's manifest lists it")
    parser.add_argument("--characteristic", required=True, help="the characteristic UUID to read")
    parser.add_argument("--ssid-prefix", required=True, help="the Wi-Fi accessory's SSID prefix")
    parser.add_argument("--fetch", required=True, help="http://ADDRESS:PORT/PATH to fetch once joined")
    parser.add_argument("--follow", type=int, default=5, help="seconds to print presence changes")
    options = parser.parse_args()
    passphrase = sys.stdin.readline().rstrip("\n")  # the hotspot's: never on the command line

    if options.bus_address:
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(options.bus_address, flags, None, None)
    else:
        connection = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    client = Client(connection)

    sensor = client.pick("Bluetooth sensor", {"ServiceUUID": options.service, "NameSubstring": options.name},
                        "BluetoothAddress")
    if not sensor:
        return 1

    def read_sensor():
        (handle,), fds = client.call(NAME, client.session, SESSION, "OpenBluetoothChannel",
                                    ("oq", (sensor, 0)), "(h)", fds=Gio.UnixFDList())
        value = read_characteristic(fds.get(handle), options.characteristic)  # get() gives us our own copy
        say(f'read: {options.characteristic} = "{value.decode(errors="replace")}"')
    read_sensor()

    lamp = client.pick("Wi-Fi accessory", {"SSIDPrefix": options.ssid_prefix}, "SSID")
    if not lamp:
        return 1
    result, interface, address = client.session_call("JoinHotspot", ("os", (lamp, passphrase)), "(sss)", timeout=120)
    say(f"hotspot: {result} interface={interface} address={address}")
    if result != "joined":
        return 1
    try:
        say("fetched: " + " / ".join(fetch(options.fetch, address).splitlines()))
    finally:
        client.session_call("LeaveHotspot", ("o", (lamp,)))
        say("left the hotspot")

    # Signals that came during the calls above first, then the state now; then changes.
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)
    for path in client.accessories:
        client.show_presence(path, client.property(path, "Present"))
    say(f"following for {options.follow} s")
    # Until the time is up, or SIGTERM (a unit being stopped). After a restart of
    # accessoryd, the sensor is read again over a new channel: the old one was closed.
    stopped = []
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: stopped.append(True) or False)
    deadline = GLib.get_monotonic_time() + options.follow * 1_000_000
    seen = 0
    while not stopped:
        left = (deadline - GLib.get_monotonic_time()) // 1_000_000
        if left <= 0:
            break
        client.wait(lambda: stopped or client.restarts > seen, max(1, left), ride_restarts=True)
        if client.restarts > seen:
            seen = client.restarts
            read_sensor()
    client.session_call("Invalidate")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (GLib.Error, OSError) as error:
        print(f"accessory_example.py: {error}", file=sys.stderr)
        sys.exit(1)
