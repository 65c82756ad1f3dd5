"""hostapd hotspots and wpa_supplicant stations on hwsim radios, driven through their control sockets."""

import glob
import os
import time

from . import processes

HOSTAPD_CONTROL_DIR = "/run/lab/hostapd"
WPA_CONTROL_DIR = "/run/lab/wpa_supplicant"


class HandshakeWitness:
    """Where every hotspot's hostapd log stands now, to tell after a join that came back
    wrong-key whether any hotspot found a station's key wrong since.

    Under emulation on a loaded host, hostapd's first EAPOL-Key timeout (100 ms) can pass before
    the station's answer arrives; the handshake then restarts, may end in a deauthentication
    (4WAY_HANDSHAKE_TIMEOUT), and NetworkManager reports it as a wrong key. A passphrase that is
    really wrong makes hostapd log an invalid MIC in message 2/4; a lost handshake does not."""

    WRONG_KEY = "invalid MIC in msg 2/4 of 4-Way Handshake"

    def __init__(self, evidence_dir):
        self.offsets = {path: os.path.getsize(path) for path in glob.glob(os.path.join(evidence_dir, "hostapd-*.log"))}

    def key_found_wrong(self):
        for path, offset in self.offsets.items():
            with open(path, "rb") as handle:
                handle.seek(offset)
                if self.WRONG_KEY in handle.read().decode(errors="replace"):
                    return True
        return False


def phy_of(interface):
    """The wiphy name (phyN) behind a network interface in this namespace."""
    with open(f"/sys/class/net/{interface}/phy80211/name") as handle:
        return handle.read().strip()


def move_to_namespace(interface, netns, log=None):
    """Give the radio to another network namespace, so the accessory is a separate host."""
    phy = phy_of(interface)
    processes.run(["iw", "phy", phy, "set", "netns", "name", netns], timeout=20, log=log).check()
    processes.wait_until(
        lambda: processes.run(["ip", "link", "show", interface], netns=netns, timeout=10).returncode == 0,
        timeout=20, what=f"{interface} to appear in namespace {netns}")


class Hotspot:
    """hostapd serving one interface; its log is part of the scenario's evidence."""

    def __init__(self, children, interface, config_path, evidence_dir, netns="", log=None):
        self.interface = interface
        self.netns = netns
        self.log_path = os.path.join(evidence_dir, f"hostapd-{interface}.log")
        os.makedirs(HOSTAPD_CONTROL_DIR, exist_ok=True)
        runtime_config = os.path.join("/run/lab", f"hostapd-{interface}.conf")
        with open(config_path) as source, open(runtime_config, "w") as target:
            target.write(_hostapd_config(source.read(), interface))
        pid_file = f"/run/lab/hostapd-{interface}.pid"
        processes.run(
            ["hostapd", "-B", "-t", "-dd", "-P", pid_file, "-f", self.log_path, runtime_config],
            timeout=30, netns=netns, log=log).check()
        children.adopt_pid_file(f"hostapd {interface}", pid_file)

    def command(self, *args, timeout=10):
        return processes.run(
            ["hostapd_cli", "-p", HOSTAPD_CONTROL_DIR, "-i", self.interface, *args], timeout=timeout)

    def wait_enabled(self, timeout=30):
        processes.wait_until(
            lambda: "state=ENABLED" in self.command("status").stdout,
            timeout=timeout, what=f"hostapd on {self.interface} to reach state=ENABLED")


class Station:
    """wpa_supplicant on one interface; joins networks through wpa_cli."""

    def __init__(self, children, interface, evidence_dir, netns="", log=None):
        self.interface = interface
        self.netns = netns
        self.log_path = os.path.join(evidence_dir, f"wpa_supplicant-{interface}.log")
        os.makedirs(WPA_CONTROL_DIR, exist_ok=True)
        pid_file = f"/run/lab/wpa_supplicant-{interface}.pid"
        processes.run(
            ["wpa_supplicant", "-B", "-t", "-dd", "-D", "nl80211", "-i", interface,
             "-C", WPA_CONTROL_DIR, "-P", pid_file, "-f", self.log_path],
            timeout=30, netns=netns, log=log).check()
        children.adopt_pid_file(f"wpa_supplicant {interface}", pid_file)
        processes.wait_until(lambda: self.command("ping").stdout.strip() == "PONG",
                             timeout=20, what=f"wpa_supplicant control socket for {interface}")

    def command(self, *args, timeout=10):
        return processes.run(
            ["wpa_cli", "-p", WPA_CONTROL_DIR, "-i", self.interface, *args], timeout=timeout)

    def status(self):
        fields = {}
        for line in self.command("status").stdout.splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                fields[key] = value
        return fields

    def connect(self, ssid, psk=None, timeout=40, settle=3):
        """Join `ssid` (WPA2-PSK when a passphrase is given, open otherwise); wait until
        wpa_state has stayed COMPLETED for `settle` seconds.

        A first COMPLETED is not yet a connection under emulation: hostapd resends
        the first EAPOL-Key message after 100 ms, the station may answer both, and
        the handshake can then fail a second later (reason 15) and start again."""
        network = self.command("add_network").stdout.strip().splitlines()[-1]
        self._set(network, "ssid", f'"{ssid}"')
        if psk is None:
            self._set(network, "key_mgmt", "NONE")
        else:
            self._set(network, "psk", f'"{psk}"')
        self._set(network, "scan_ssid", "1")
        self.command("select_network", network).check()
        completed_since = None

        def settled():
            nonlocal completed_since
            if self.status().get("wpa_state") != "COMPLETED":
                completed_since = None
                return False
            completed_since = completed_since or time.monotonic()
            return time.monotonic() - completed_since >= settle

        processes.wait_until(settled, timeout=timeout,
                             what=f"{self.interface} to join {ssid!r} and stay joined for {settle} s")
        return self.status()

    def _set(self, network, key, value):
        result = self.command("set_network", network, key, value)
        if result.stdout.strip().splitlines()[-1:] != ["OK"]:
            raise AssertionError(f"wpa_cli set_network {key} failed: {result.stdout}{result.stderr}")


def _hostapd_config(text, interface):
    """The scenario's hostapd config with the lab's interface, driver and control socket."""
    kept = [line for line in text.splitlines()
            if not line.strip().startswith(("interface=", "ctrl_interface="))]
    if not any(line.strip().startswith("driver=") for line in kept):
        kept.append("driver=nl80211")
    kept += [f"interface={interface}", f"ctrl_interface={HOSTAPD_CONTROL_DIR}"]
    return "\n".join(kept) + "\n"
