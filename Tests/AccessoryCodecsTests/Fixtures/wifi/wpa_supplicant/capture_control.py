#!/usr/bin/python3
"""Record a conversation with wpa_supplicant's control interface, byte for byte.

Talks to the control socket the way any client does (a unix datagram socket bound
to a path of its own, connected to <control dir>/<interface>), on two sockets: one
for requests and replies, one ATTACHed for events. Every datagram sent or received
is written as one line: '> HEX' (sent), '< HEX' (reply), '! HEX' (event), so the
fixtures keep every byte (replies span lines, SSIDs may hold any byte).

usage: capture_control.py CONTROL_DIR INTERFACE OUTDIR   (steps below, one file each)
"""
import os
import select
import socket
import sys
import time

control_dir, interface, outdir = sys.argv[1:4]
RUN = "/run/capture-wpa"
os.makedirs(RUN, exist_ok=True)


def open_socket(name):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = f"{RUN}/{name}-{os.getpid()}"
    if os.path.exists(path):
        os.unlink(path)
    sock.bind(path)
    sock.connect(f"{control_dir}/{interface}")
    return sock


commands = open_socket("cmd")
monitor = open_socket("mon")
out = None


def record(mark, data):
    out.write(f"{mark} {data.hex()}\n")
    out.flush()


def request(text):
    data = text if isinstance(text, bytes) else text.encode()
    record(">", data)
    commands.send(data)
    while True:
        ready, _, _ = select.select([commands], [], [], 10)
        if not ready:
            raise SystemExit(f"no reply to {data!r}")
        reply = commands.recv(8192)
        record("<", reply)
        return reply.decode(errors="replace")


def events_until(needles, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([monitor], [], [], 0.5)
        if ready:
            event = monitor.recv(8192)
            record("!", event)
            if any(needle in event for needle in needles):
                return event
    return None


def step(name):
    global out
    if out:
        out.close()
    out = open(os.path.join(outdir, f"{name}.transcript"), "w")
    out.write(f"# wpa_supplicant control interface, {interface}: {name}\n")


# ATTACH the monitor socket (its reply recorded in the first step).
step("attach-ping-status-idle")
record(">", b"ATTACH")
monitor.send(b"ATTACH")
record("<", monitor.recv(4096))
request("PING")
request("STATUS")
request("LIST_NETWORKS")

step("join-uplink")
net = request("ADD_NETWORK").strip()
request(f"SET_NETWORK {net} ssid {b'Home-Gateway'.hex()}")
request(f'SET_NETWORK {net} psk "home-passphrase"')
request(f"SET_NETWORK {net} key_mgmt WPA-PSK")
request(f"SELECT_NETWORK {net}")
events_until([b"CTRL-EVENT-CONNECTED"], 60)
request("STATUS")
request("LIST_NETWORKS")

step("join-hotspot-wpa2")
hot = request("ADD_NETWORK").strip()
request(f"SET_NETWORK {hot} ssid {b'Lamp-Setup'.hex()}")
request(f'SET_NETWORK {hot} psk "lamp pass "quoted" phrase"')
request(f"SET_NETWORK {hot} key_mgmt WPA-PSK")
request(f"SET_NETWORK {hot} scan_ssid 1")
request(f"SELECT_NETWORK {hot}")
events_until([b"CTRL-EVENT-CONNECTED", b"TEMP-DISABLED"], 60)
request("STATUS")
request("LIST_NETWORKS")
request(f"GET_NETWORK {hot} ssid")
request(f"GET_NETWORK {hot} psk")

step("wrong-key")
wrong = request("ADD_NETWORK").strip()
request(f"SET_NETWORK {wrong} ssid {b'Lamp-Setup'.hex()}")
request(f'SET_NETWORK {wrong} psk "not the passphrase"')
request(f"SET_NETWORK {wrong} key_mgmt WPA-PSK")
request(f"SELECT_NETWORK {wrong}")
events_until([b"reason=WRONG_KEY"], 60)
request("LIST_NETWORKS")
request(f"REMOVE_NETWORK {wrong}")
request(f"REMOVE_NETWORK {hot}")
request(f"SELECT_NETWORK {net}")
events_until([b"CTRL-EVENT-CONNECTED"], 60)
request("LIST_NETWORKS")

step("not-found")
absent = request("ADD_NETWORK").strip()
request(f"SET_NETWORK {absent} ssid {b'Absent-Accessory'.hex()}")
request(f'SET_NETWORK {absent} psk "some passphrase"')
request(f"SET_NETWORK {absent} scan_ssid 1")
request(f"SELECT_NETWORK {absent}")
events_until([b"CTRL-EVENT-NETWORK-NOT-FOUND"], 60)
request(f"REMOVE_NETWORK {absent}")
request(f"SELECT_NETWORK {net}")
events_until([b"CTRL-EVENT-CONNECTED"], 60)

step("sae")
sae = request("ADD_NETWORK").strip()
request(f"SET_NETWORK {sae} ssid {b'Plug-WPA3'.hex()}")
request(f"SET_NETWORK {sae} sae_password {b'plug sae password'.hex()}")
request(f"SET_NETWORK {sae} key_mgmt SAE")
request(f"SET_NETWORK {sae} ieee80211w 2")
request(f"SELECT_NETWORK {sae}")
events_until([b"CTRL-EVENT-CONNECTED", b"TEMP-DISABLED"], 60)
request("STATUS")
request(f"REMOVE_NETWORK {sae}")
request(f"SELECT_NETWORK {net}")
events_until([b"CTRL-EVENT-CONNECTED"], 60)

step("hostile-ssids")
for ssid in [b'say "hi"', b"back\\slash", b"new\nline", b"\xff\xfe not utf8", b'\\"\n\x00x']:
    n = request("ADD_NETWORK").strip()
    request(f"SET_NETWORK {n} ssid {ssid.hex()}")
    request(f"GET_NETWORK {n} ssid")
    request(f"REMOVE_NETWORK {n}")

step("failures")
request("SELECT_NETWORK 99")
request("GET_NETWORK 99 ssid")
n = request("ADD_NETWORK").strip()
request(f'SET_NETWORK {n} psk "short"')
request(f"SET_NETWORK {n} ssid 4")
request(f"SET_NETWORK {n} nonsense 1")
request(f"REMOVE_NETWORK {n}")
request("NOT_A_COMMAND")
request("SCAN")
request("SCAN")
events_until([b"CTRL-EVENT-SCAN-RESULTS"], 30)
out.close()
record = None
