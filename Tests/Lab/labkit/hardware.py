"""Building the radios a hw.conf asks for, and tearing them down so the next scenario starts clean.

Wi-Fi: mac80211_hwsim is reloaded with the scenario's radio count (its radios
share one virtual air). Bluetooth: btvirt is restarted with the scenario's
controller count. Namespaces, hotspots and advertisers follow.
"""

import os
import re
from dataclasses import dataclass

from . import bluetooth, processes, wifi


@dataclass
class WiFiInterface:
    name: str
    ifindex: int
    phy: int          # the wiphy index nl80211 reports (NL80211_ATTR_WIPHY)
    phy_name: str
    address: str


def wifi_interfaces():
    """Wireless interfaces in this network namespace (hwsim0, the monitor, has no phy80211)."""
    found = []
    for name in os.listdir("/sys/class/net"):
        phy_dir = f"/sys/class/net/{name}/phy80211"
        if not os.path.isdir(phy_dir):
            continue
        found.append(WiFiInterface(
            name=name,
            ifindex=int(_read(f"/sys/class/net/{name}/ifindex")),
            phy=int(_read(f"{phy_dir}/index")),
            phy_name=_read(f"{phy_dir}/name"),
            address=_read(f"/sys/class/net/{name}/address")))
    return sorted(found, key=lambda interface: interface.ifindex)


def module_loaded(name):
    return os.path.isdir(f"/sys/module/{name}")


class Hardware:
    """The VM's radios. One instance lives for the whole boot."""

    def __init__(self, log):
        self.log = log
        self.controllers = bluetooth.VirtualControllers()
        self.namespaces = []
        self.hotspots = {}
        self.advertisers = {}

    def reset(self):
        """Back to no radios at all: what every scenario starts from."""
        self.hotspots.clear()
        self.advertisers.clear()
        self.controllers.stop()
        for namespace in self.namespaces:
            processes.run(["ip", "netns", "delete", namespace], timeout=20, log=self.log)
        self.namespaces.clear()
        for module in ("mac80211_hwsim", "hci_vhci"):
            if module_loaded(module):
                processes.run(["rmmod", module], timeout=30, log=self.log).check()

    def build(self, config, children, evidence_dir):
        """Radios, namespaces, hotspots and advertisers as `config` declares them."""
        if config.wifi_radios:
            processes.run(["modprobe", "mac80211_hwsim", f"radios={config.wifi_radios}"],
                          timeout=60, log=self.log).check()
            processes.wait_until(lambda: len(wifi_interfaces()) >= config.wifi_radios,
                                 timeout=30, what=f"{config.wifi_radios} hwsim interfaces")
        if config.bluetooth_controllers:
            self.controllers.start(config.bluetooth_controllers,
                                   os.path.join(evidence_dir, "btvirt.log"),
                                   bring_up=config.bluetooth_up, log=self.log)
        wanted = list(config.namespaces) + [h.netns for h in config.hotspots if h.netns]
        for namespace in dict.fromkeys(wanted):
            self.add_namespace(namespace)
        for hotspot in config.hotspots:
            self.start_hotspot(children, hotspot.interface, hotspot.config_path, evidence_dir,
                               hotspot.netns)
        for advertiser in config.advertisers:
            self.advertise(advertiser.controller, advertiser.adv_data, advertiser.scan_rsp,
                           advertiser.interval_ms, advertiser.advertising_type)

    def add_namespace(self, namespace):
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", namespace):
            raise ValueError(f"bad namespace name {namespace!r}")
        processes.run(["ip", "netns", "add", namespace], timeout=20, log=self.log).check()
        self.namespaces.append(namespace)
        processes.run(["ip", "link", "set", "lo", "up"], timeout=20, netns=namespace, log=self.log)

    def start_hotspot(self, children, interface, config_path, evidence_dir, netns=""):
        if netns:
            wifi.move_to_namespace(interface, netns, log=self.log)
        hotspot = wifi.Hotspot(children, interface, config_path, evidence_dir, netns, log=self.log)
        hotspot.wait_enabled()
        self.hotspots[interface] = hotspot
        return hotspot

    def advertise(self, controller, adv_data=b"", scan_rsp=b"", interval_ms=100, advertising_type="ind"):
        advertiser = bluetooth.Advertiser(controller, log=self.log)
        advertiser.configure(adv_data, scan_rsp, interval_ms, advertising_type)
        self.advertisers[controller] = advertiser
        return advertiser


def _read(path):
    with open(path) as handle:
        return handle.read().strip()
