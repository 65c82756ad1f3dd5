"""NetworkManager inside the lab VM, as Raspberry Pi OS runs it: managing wlan0 with a
saved connection to the gateway's uplink (Home-Gateway), its own wpa_supplicant on
D-Bus, its internal DHCP client. Configured from a scenario's scratch files only
(keyfile profiles, unmanaged-devices for everything but wlan0); the hotspot's radios
are in their own namespace, out of its sight. Stopped with the scenario's processes."""

import os
import subprocess

UPLINK = "Home-Gateway"
UPLINK_UUID = "2a5c1e9b-7d3f-4c8a-9b1e-6f0d2c4a8e17"

CONFIG = """[main]
plugins=keyfile
dhcp=internal
auth-polkit={polkit}
[keyfile]
path={profiles}
unmanaged-devices=except:interface-name:wlan0
[device]
wifi.scan-rand-mac-address=no
[connectivity]
enabled=false
[logging]
level=DEBUG
domains=DEFAULT,WIFI:DEBUG,DEVICE:DEBUG,DHCP4:DEBUG
"""

UPLINK_PROFILE = """[connection]
id={uplink}
uuid={uuid}
type=wifi
interface-name=wlan0
autoconnect=true
[wifi]
ssid={uplink}
mode=infrastructure
band=bg
channel=6
[wifi-security]
key-mgmt=wpa-psk
psk=home-passphrase
[ipv4]
method=manual
address1=192.168.88.2/24
[ipv6]
method=ignore
"""


class NetworkManager:
    def __init__(self, lab, polkit=False):
        """`polkit`: ask polkitd whether a caller other than root may (as on a board);
        otherwise only root may change anything."""
        self.lab = lab
        self.starts = 0
        scratch = lab.scratch_dir
        self.profiles = os.path.join(scratch, "nm-profiles")
        os.makedirs(self.profiles, exist_ok=True)
        os.makedirs(os.path.join(scratch, "nm-conf.d"), exist_ok=True)
        self.config = lab.write_file("NetworkManager.conf", CONFIG.format(profiles=self.profiles, polkit="true" if polkit else "false"))
        uplink = os.path.join(self.profiles, "home.nmconnection")
        with open(uplink, "w") as handle:
            handle.write(UPLINK_PROFILE.format(uplink=UPLINK, uuid=UPLINK_UUID))
        os.chmod(uplink, 0o600)
        self.process = None

    def start_supplicant(self):
        """NetworkManager's wpa_supplicant, on D-Bus, as Debian's unit runs it."""
        log = open(os.path.join(self.lab.evidence_dir, "wpa_supplicant-dbus.log"), "ab")
        self.lab._children.spawn("wpa_supplicant (D-Bus)", ["wpa_supplicant", "-u", "-t", "-dd"], stdout=log)
        self.lab.wait_until(lambda: self.bus_has("fi.w1.wpa_supplicant1"), timeout=60, what="wpa_supplicant on D-Bus")

    def bus_has(self, name):
        result = self.lab.run(["busctl", "--system", "status", name], timeout=20)
        return result.returncode == 0

    def start(self):
        self.starts += 1
        log = open(os.path.join(self.lab.evidence_dir, f"NetworkManager-{self.starts}.log"), "ab")
        conf_dir = os.path.join(self.lab.scratch_dir, "nm-conf.d")
        self.process = self.lab._children.spawn("NetworkManager", [
            "NetworkManager", "--no-daemon", "--debug", "--config", self.config, "--config-dir", conf_dir,
            "--system-config-dir", conf_dir, "--state-file", os.path.join(self.lab.scratch_dir, "nm.state"),
            "--pid-file", os.path.join(self.lab.scratch_dir, "nm.pid")], stdout=log)
        self.lab.wait_until(lambda: self.bus_has("org.freedesktop.NetworkManager"), timeout=90,
                            what="NetworkManager on the bus")

    def stop(self, sig=None):
        """Stops it (SIGTERM, or `sig`) and waits until it has left the bus."""
        if sig is None:
            self.process.terminate()
        else:
            self.process.send_signal(sig)
        self.process.wait(timeout=60)
        self.lab.wait_until(lambda: not self.bus_has("org.freedesktop.NetworkManager"), timeout=30,
                            what="NetworkManager off the bus")

    def nmcli(self, *args):
        return self.lab.run(["nmcli", *args], timeout=30)

    def device(self):
        """wlan0's (state, connection) as nmcli shows them."""
        lines = self.nmcli("-g", "GENERAL.STATE,GENERAL.CONNECTION", "device", "show", "wlan0").stdout.splitlines()
        return (lines + ["", ""])[:2]

    def profiles_named(self, prefix):
        names = self.nmcli("-g", "NAME", "connection", "show").stdout.splitlines()
        return [name for name in names if name.startswith(prefix)]

    def wait_for_uplink(self, timeout=120, kick=False):
        """wlan0 connected to the uplink; returns nmcli's (state, connection). With `kick`
        (the scenario's setup, not what is under test), an activation that failed is
        started again: under software emulation on a loaded host the virtual AP can
        answer an association too late for NetworkManager, which then blocks the profile."""
        def connected():
            state, connection = self.device()
            if state.startswith("100") and connection == UPLINK:
                return (state, connection)
            if kick and (state.startswith("30") or state.startswith("120")):
                self.nmcli("--wait", "0", "connection", "up", "uuid", UPLINK_UUID)
            return None
        return self.lab.wait_until(connected, timeout=timeout, what=f"wlan0 on {UPLINK} through NetworkManager")
