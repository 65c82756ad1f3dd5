#!/usr/bin/python3
"""Dump the kernel's scan results for one interface as raw netlink bytes.

Sends one NL80211_CMD_GET_SCAN dump request over a raw AF_NETLINK/NETLINK_GENERIC
socket and writes every reply datagram, unchanged and in order, to OUTPUT (the
NEW_SCAN_RESULTS messages followed by NLMSG_DONE). Uses only Debian's python3.

usage: nl80211_get_scan.py IFNAME OUTPUT
"""
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 16
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
NL80211_CMD_GET_SCAN = 32
NL80211_ATTR_IFINDEX = 3


def attribute(kind, payload):
    header = struct.pack("=HH", 4 + len(payload), kind)
    return header + payload + b"\0" * (-len(payload) % 4)


def message(family, flags, seq, command, attributes):
    body = struct.pack("=BBH", command, 1, 0) + attributes
    return struct.pack("=IHHII", 16 + len(body), family, flags, seq, 0) + body


def messages(datagram):
    offset = 0
    while offset + 16 <= len(datagram):
        length, kind = struct.unpack_from("=IH", datagram, offset)
        yield kind, datagram[offset:offset + length]
        offset += (length + 3) & ~3


def family_id(sock, name):
    sock.send(message(GENL_ID_CTRL, NLM_F_REQUEST, 1, CTRL_CMD_GETFAMILY,
                      attribute(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")))
    for kind, msg in messages(sock.recv(65536)):
        if kind == NLMSG_ERROR:
            raise OSError("family lookup failed")
        offset = 20
        while offset + 4 <= len(msg):
            length, attr = struct.unpack_from("=HH", msg, offset)
            if attr == CTRL_ATTR_FAMILY_ID:
                return struct.unpack_from("=H", msg, offset + 4)[0]
            offset += (length + 3) & ~3
    raise OSError("no family id in reply")


def main():
    ifname, output = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    nl80211 = family_id(sock, "nl80211")
    ifindex = socket.if_nametoindex(ifname)
    sock.send(message(nl80211, NLM_F_REQUEST | NLM_F_DUMP, 2, NL80211_CMD_GET_SCAN,
                      attribute(NL80211_ATTR_IFINDEX, struct.pack("=I", ifindex))))
    count = 0
    with open(output, "wb") as out:
        done = False
        while not done:
            datagram = sock.recv(1 << 20)
            out.write(datagram)
            for kind, _ in messages(datagram):
                if kind in (NLMSG_DONE, NLMSG_ERROR):
                    done = True
                else:
                    count += 1
    print(f"{ifname} (ifindex {ifindex}, nl80211 family {nl80211}): {count} BSS messages -> {output}")


if __name__ == "__main__":
    main()
