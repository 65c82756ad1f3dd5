"""A D-Bus client that speaks the wire protocol on the bus socket itself, for floods.

dbus-python waits for each reply, and under software emulation that caps a client at
a few thousand calls in 35 s. This one authenticates (SASL EXTERNAL), says Hello,
then sends calls marshalled once (only the serial changes) as fast as it is asked to,
and reads the replies as they come. Standard library only (the guest's python3).

Only what the flood needs is marshalled: strings, object paths, uint32, arrays of
structs of strings and string dicts. Replies are classified, not decoded: a method
return, an error (its name and whether its text holds a word), or a signal.
"""

import os
import socket
import struct

METHOD_CALL, METHOD_RETURN, ERROR, SIGNAL = 1, 2, 3, 4
NO_REPLY_EXPECTED = 0x1
# Header field codes (D-Bus specification, "Message Format").
PATH, INTERFACE, MEMBER, ERROR_NAME, REPLY_SERIAL, DESTINATION, SENDER, SIGNATURE = 1, 2, 3, 4, 5, 6, 7, 8


def pad(buffer, alignment):
    buffer.extend(b"\0" * (-len(buffer) % alignment))


class Writer:
    """Marshals little-endian D-Bus values into a bytearray (offsets from the message start)."""

    def __init__(self):
        self.data = bytearray()

    def uint32(self, value):
        pad(self.data, 4)
        self.data += struct.pack("<I", value)

    def string(self, text):
        raw = text.encode()
        self.uint32(len(raw))
        self.data += raw + b"\0"

    def signature(self, text):
        raw = text.encode()
        self.data += bytes([len(raw)]) + raw + b"\0"

    def array(self, element_alignment, fill):
        """fill(writer) writes the elements; the length excludes the padding before the first."""
        self.uint32(0)
        length_at = len(self.data) - 4
        pad(self.data, element_alignment)
        start = len(self.data)
        fill(self)
        struct.pack_into("<I", self.data, length_at, len(self.data) - start)


def migration_items(items):
    """The body of Session1.Migrate: a(sssa{ss}), each item (name, address, ssid, {})."""
    body = Writer()

    def structs(w):
        for name, address, ssid in items:
            pad(w.data, 8)
            w.string(name)
            w.string(address)
            w.string(ssid)
            w.array(8, lambda _: None)
    body.array(8, structs)
    return bytes(body.data), "a(sssa{ss})"


def method_call(serial, destination, path, interface, member, body=b"", signature="", flags=0):
    """One marshalled method call; its serial is the uint32 at offset 8."""
    fields = Writer()
    fields.data += b"\0" * 16              # the fixed part, so alignment counts from the message start

    def field(code, type_code, value):
        pad(fields.data, 8)
        fields.data += bytes([code])
        fields.signature(type_code)
        if type_code == "g":
            fields.signature(value)
        else:
            fields.string(value)
    def all_fields(_):
        field(PATH, "o", path)
        field(INTERFACE, "s", interface)
        field(MEMBER, "s", member)
        field(DESTINATION, "s", destination)
        if signature:
            field(SIGNATURE, "g", signature)
    # The array's length word sits at offset 12 of the fixed part.
    start = len(fields.data)
    all_fields(None)
    header = bytearray(fields.data)
    struct.pack_into("<cBBBIII", header, 0, b"l", METHOD_CALL, flags, 1, len(body), serial, len(header) - start)
    pad(header, 8)
    return bytes(header) + body


class Reply:
    __slots__ = ("kind", "reply_serial", "error", "raw")

    def __init__(self, kind, reply_serial, error, raw):
        self.kind, self.reply_serial, self.error, self.raw = kind, reply_serial, error, raw


def parse_fields(raw, fields_length):
    """(reply serial, error name) from a message's header fields."""
    offset, end = 16, 16 + fields_length
    reply_serial, error = None, None
    while offset < end:
        offset += -offset % 8
        code = raw[offset]
        sig_length = raw[offset + 1]
        type_code = raw[offset + 2:offset + 2 + sig_length]
        offset += 3 + sig_length
        if type_code in (b"s", b"o"):
            offset += -offset % 4
            (length,) = struct.unpack_from("<I", raw, offset)
            value = raw[offset + 4:offset + 4 + length]
            offset += 4 + length + 1
            if code == ERROR_NAME:
                error = value.decode(errors="replace")
        elif type_code == b"g":
            offset += 1 + raw[offset] + 1
        elif type_code == b"u":
            offset += -offset % 4
            (value,) = struct.unpack_from("<I", raw, offset)
            offset += 4
            if code == REPLY_SERIAL:
                reply_serial = value
        else:
            break                           # nothing else appears in a bus daemon's headers
    return reply_serial, error


class WireConnection:
    """One connection to the bus: connect, authenticate, Hello; then send and read."""

    def __init__(self, address=None):
        path = socket_path(address or os.environ.get("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/run/dbus/system_bus_socket"))
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = bytearray()
        self.serial = 0
        self.authenticate()
        self.unique_name = self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")[1]

    def authenticate(self):
        uid = str(os.getuid()).encode().hex()
        self.socket.sendall(b"\0AUTH EXTERNAL " + uid.encode() + b"\r\n")
        line = self.read_line()
        if not line.startswith(b"OK "):
            raise ConnectionError(f"the bus refused SASL EXTERNAL: {line!r}")
        self.socket.sendall(b"BEGIN\r\n")

    def read_line(self):
        while b"\r\n" not in self.buffer:
            chunk = self.socket.recv(4096)
            if not chunk:
                raise ConnectionError("the bus closed the connection")
            self.buffer += chunk
        line, _, rest = bytes(self.buffer).partition(b"\r\n")
        self.buffer = bytearray(rest)
        return line

    def next_serial(self):
        self.serial += 1
        return self.serial

    def send(self, data):
        self.socket.sendall(data)

    def messages(self, block=True):
        """The complete messages received so far (reading once, blocking if asked and none)."""
        found = []
        while True:
            if len(self.buffer) >= 16:
                body_length, _, fields_length = struct.unpack_from("<III", self.buffer, 4)
                total = 16 + fields_length + (-fields_length % 8) + body_length
                if len(self.buffer) >= total:
                    raw = bytes(self.buffer[:total])
                    del self.buffer[:total]
                    reply_serial, error = parse_fields(raw, fields_length)
                    found.append(Reply(raw[1], reply_serial, error, raw))
                    continue
            if found or not block:
                try:
                    chunk = self.socket.recv(1 << 20, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    return found
            else:
                chunk = self.socket.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the bus closed the connection")
            self.buffer += chunk

    def call(self, destination, path, interface, member, body=b"", signature=""):
        """One call, waiting for its answer: (kind, first string or object path of the body, or the error)."""
        serial = self.next_serial()
        self.send(method_call(serial, destination, path, interface, member, body, signature))
        while True:
            for reply in self.messages():
                if reply.reply_serial != serial:
                    continue
                if reply.kind == ERROR:
                    return ERROR, reply.error + ": " + first_string(reply.raw)
                return reply.kind, first_string(reply.raw)


def first_string(raw):
    """The body's first value when it is a string or object path (else "")."""
    fields_length = struct.unpack_from("<I", raw, 12)[0]
    start = 16 + fields_length + (-fields_length % 8)
    if len(raw) < start + 4:
        return ""
    (length,) = struct.unpack_from("<I", raw, start)
    return raw[start + 4:start + 4 + length].decode(errors="replace")


def socket_path(address):
    for part in address.split(";"):
        if part.startswith("unix:"):
            for key_value in part[len("unix:"):].split(","):
                key, _, value = key_value.partition("=")
                if key == "path":
                    return value
                if key == "abstract":
                    return "\0" + value
    raise ValueError(f"no unix path in the bus address {address!r}")
