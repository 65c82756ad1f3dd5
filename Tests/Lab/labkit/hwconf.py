"""The hardware a scenario declares in its hw.conf, in the spirit of iwd's autotests.

    [SETUP]
    wifi_radios = 2
    bluetooth_controllers = 2
    namespaces = accessory
    timeout = 120

    [HOSTAPD]
    wlan1 = hotspot.conf
    netns = accessory

    [ADVERTISER hci1]
    adv_data = 020106...
    scan_rsp = 0909...
    interval = 100

Parsed on the host (to plan the boot) and in the VM (to build the hardware),
so this module uses nothing but the standard library and touches no device.
"""

import configparser
import os
import re
from dataclasses import dataclass, field

DEFAULT_SCENARIO_TIMEOUT = 150

ADVERTISING_TYPES = {
    "ind": 0x00,          # connectable, scannable
    "scan_ind": 0x02,     # scannable, not connectable
    "nonconn_ind": 0x03,  # neither
}


class HardwareConfigError(ValueError):
    """hw.conf says something the lab cannot build; the message names file, section and key."""


@dataclass
class AdvertiserConfig:
    controller: str
    adv_data: bytes = b""
    scan_rsp: bytes = b""
    interval_ms: int = 100
    advertising_type: str = "ind"


@dataclass
class HotspotConfig:
    interface: str
    config_path: str
    netns: str = ""


@dataclass
class HardwareConfig:
    path: str
    wifi_radios: int = 0
    bluetooth_controllers: int = 0
    bluetooth_up: bool = True
    namespaces: list = field(default_factory=list)
    timeout: int = DEFAULT_SCENARIO_TIMEOUT
    hotspots: list = field(default_factory=list)
    advertisers: list = field(default_factory=list)

    @property
    def directory(self):
        return os.path.dirname(os.path.abspath(self.path))


def load(path):
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # interface names and keys keep their case
    try:
        with open(path, encoding="utf-8") as handle:
            parser.read_file(handle)
    except (OSError, configparser.Error) as error:
        raise HardwareConfigError(f"{path}: {error}") from error

    config = HardwareConfig(path=path)
    for section in parser.sections():
        values = dict(parser.items(section))
        if section == "SETUP":
            _read_setup(config, values)
        elif section == "HOSTAPD":
            _read_hostapd(config, values)
        elif section.startswith("ADVERTISER "):
            _read_advertiser(config, section, values)
        else:
            raise HardwareConfigError(f"{path}: unknown section [{section}]")
    _check_references(config)
    return config


def _read_setup(config, values):
    known = {"wifi_radios", "bluetooth_controllers", "bluetooth_up", "namespaces", "timeout"}
    _reject_unknown(config.path, "SETUP", values, known)
    config.wifi_radios = _count(config.path, "SETUP", values, "wifi_radios", 0)
    config.bluetooth_controllers = _count(config.path, "SETUP", values, "bluetooth_controllers", 0)
    config.bluetooth_up = _boolean(config.path, "SETUP", values, "bluetooth_up", True)
    config.namespaces = values.get("namespaces", "").split()
    config.timeout = _count(config.path, "SETUP", values, "timeout", DEFAULT_SCENARIO_TIMEOUT)
    if config.timeout == 0:
        raise HardwareConfigError(f"{config.path}: [SETUP] timeout must be positive")


def _read_hostapd(config, values):
    netns = values.pop("netns", "").strip()
    for interface, file_name in values.items():
        if not re.fullmatch(r"wlan\d+", interface):
            raise HardwareConfigError(
                f"{config.path}: [HOSTAPD] key {interface!r} is not netns or a wlanN interface")
        config_path = os.path.join(config.directory, file_name.strip())
        if not os.path.isfile(config_path):
            raise HardwareConfigError(f"{config.path}: [HOSTAPD] {interface}: no file {config_path}")
        config.hotspots.append(HotspotConfig(interface, config_path, netns))


def _read_advertiser(config, section, values):
    controller = section.split(None, 1)[1].strip()
    if not re.fullmatch(r"hci\d+", controller):
        raise HardwareConfigError(f"{config.path}: [{section}] does not name a controller hciN")
    known = {"adv_data", "scan_rsp", "interval", "type"}
    _reject_unknown(config.path, section, values, known)
    advertiser = AdvertiserConfig(controller)
    advertiser.adv_data = _hex(config.path, section, values, "adv_data")
    advertiser.scan_rsp = _hex(config.path, section, values, "scan_rsp")
    advertiser.interval_ms = _count(config.path, section, values, "interval", 100)
    # The controller accepts 20 ms .. 10.24 s (0x0020 .. 0x4000 units of 0.625 ms).
    if not 20 <= advertiser.interval_ms <= 10240:
        raise HardwareConfigError(f"{config.path}: [{section}] interval must be 20..10240 ms")
    advertiser.advertising_type = values.get("type", "ind").strip()
    if advertiser.advertising_type not in ADVERTISING_TYPES:
        raise HardwareConfigError(
            f"{config.path}: [{section}] type must be one of {', '.join(ADVERTISING_TYPES)}")
    config.advertisers.append(advertiser)


def _check_references(config):
    for hotspot in config.hotspots:
        index = int(hotspot.interface[4:])
        if index >= config.wifi_radios:
            raise HardwareConfigError(
                f"{config.path}: [HOSTAPD] {hotspot.interface} needs wifi_radios > {index}")
    for advertiser in config.advertisers:
        index = int(advertiser.controller[3:])
        if index >= config.bluetooth_controllers:
            raise HardwareConfigError(
                f"{config.path}: [ADVERTISER {advertiser.controller}] needs bluetooth_controllers > {index}")


def _reject_unknown(path, section, values, known):
    for key in values:
        if key not in known:
            raise HardwareConfigError(f"{path}: [{section}] unknown key {key!r}")


def _count(path, section, values, key, default):
    text = values.get(key)
    if text is None:
        return default
    if not text.strip().isdigit():
        raise HardwareConfigError(f"{path}: [{section}] {key} must be a whole number, not {text!r}")
    return int(text)


def _boolean(path, section, values, key, default):
    text = values.get(key)
    if text is None:
        return default
    if text.strip().lower() in ("yes", "true", "1", "on"):
        return True
    if text.strip().lower() in ("no", "false", "0", "off"):
        return False
    raise HardwareConfigError(f"{path}: [{section}] {key} must be yes or no, not {text!r}")


def _hex(path, section, values, key):
    text = re.sub(r"[\s:]", "", values.get(key, ""))
    try:
        data = bytes.fromhex(text)
    except ValueError as error:
        raise HardwareConfigError(f"{path}: [{section}] {key} is not hex: {error}") from error
    if len(data) > 31:
        raise HardwareConfigError(f"{path}: [{section}] {key} is {len(data)} bytes, legacy advertising allows 31")
    return data
