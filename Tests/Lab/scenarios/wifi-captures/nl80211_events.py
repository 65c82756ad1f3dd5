#!/usr/bin/python3
"""Record nl80211's `scan` and `config` multicast events as raw netlink bytes.

Joins both groups on a raw AF_NETLINK/NETLINK_GENERIC socket, touches OUTPUT.ready
once subscribed, then writes every datagram received, unchanged, as one line of
hex per datagram to OUTPUT until OUTPUT.stop exists. Uses only Debian's python3.

usage: nl80211_events.py OUTPUT
"""
import os
import select
import socket
import struct
import sys

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
GENL_ID_CTRL = 16
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NLM_F_REQUEST = 0x1


def attribute(kind, payload):
    return struct.pack("=HH", 4 + len(payload), kind) + payload + b"\0" * (-len(payload) % 4)


def attributes(data):
    offset = 0
    while offset + 4 <= len(data):
        length, kind = struct.unpack_from("=HH", data, offset)
        yield kind & 0x3FFF, data[offset + 4:offset + length]
        offset += (length + 3) & ~3


def resolve(sock, name):
    body = struct.pack("=BBH", CTRL_CMD_GETFAMILY, 1, 0) + attribute(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")
    sock.send(struct.pack("=IHHII", 16 + len(body), GENL_ID_CTRL, NLM_F_REQUEST, 1, 0) + body)
    reply = sock.recv(65536)
    family, groups = None, {}
    for kind, payload in attributes(reply[20:]):
        if kind == CTRL_ATTR_FAMILY_ID:
            family = struct.unpack("=H", payload[:2])[0]
        elif kind == CTRL_ATTR_MCAST_GROUPS:
            for _, group in attributes(payload):
                fields = dict(attributes(group))
                groups[fields[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()] = \
                    struct.unpack("=I", fields[CTRL_ATTR_MCAST_GRP_ID])[0]
    return family, groups


def main():
    output = sys.argv[1]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    family, groups = resolve(sock, "nl80211")
    for name in ("scan", "config"):
        sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, groups[name])
    with open(output, "w") as out:
        out.write(f"# nl80211 family {family}, groups scan={groups['scan']} config={groups['config']}\n")
        out.flush()
        open(output + ".ready", "w").close()
        while not os.path.exists(output + ".stop"):
            readable, _, _ = select.select([sock], [], [], 0.2)
            if readable:
                out.write(sock.recv(1 << 20).hex() + "\n")
                out.flush()


if __name__ == "__main__":
    main()
