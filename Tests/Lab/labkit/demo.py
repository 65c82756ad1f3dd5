"""`lab demo`: the lab and accessoryd, narrated for a person watching.

Two Wi-Fi radios (one serving a hotspot from its own namespace), two LE
controllers (hci1 advertising a lamp), accessoryd in daemon mode logging to
the console; then its output and its journal entries, then a clean stop.
"""

import os
import signal
import traceback

from . import hwconf
from .guest import ScenarioRun, ScenarioTimeout, TEARDOWN_TIMEOUT

DEMO_TIMEOUT = 300
READVERTISE_ROUNDS = 3



DEMO_DESCRIPTORS = """[Descriptor lamp]
App=demo
ServiceUUID=3F1C1A2E-7B4D-4C6E-9A51-0D2B6C8E4F10
NameSubstring=Lamp

[Descriptor lamp-hotspot]
App=demo
SSIDPrefix=LabLamp-
"""

def run(plan, hardware, transcript):
    say = transcript.say
    scenario = ScenarioRun("demo", plan["demo_dir"], hardware, plan["build_dir"], plan["run_dir"],
                           transcript)
    status = 1
    signal.alarm(DEMO_TIMEOUT)
    try:
        config = hwconf.load(os.path.join(plan["demo_dir"], "hw.conf"))
        say("Setting up the virtual radios…")
        lab = scenario.prepare(config)
        _describe_radios(lab, config, say)

        daemon_path = lab.binary("accessoryd")
        say(f"Asking accessoryd what it sees… ({daemon_path} --probe --log-target=journal)")
        probe = lab.run([daemon_path, "--probe", "--log-target=journal"], timeout=60)
        say(_indent(probe.stdout.rstrip() or f"(nothing; exit status {probe.returncode})"))
        # The gateway's own Wi-Fi is up, as wpa_supplicant would have it on a board.
        lab.run(["ip", "link", "set", "wlan0", "up"], timeout=30).check()
        # Active scanning, since the lamp's name is only in its scan response.
        config_path = lab.write_file("accessoryd.conf", "[Bluetooth]\nScanMode=active\n")
        # What an app would ask for: the lamp by its service UUID and name, and its setup hotspot.
        descriptors_path = lab.write_file("descriptors.conf", DEMO_DESCRIPTORS)
        say("Descriptors, as an app would give them:")
        say(_indent(DEMO_DESCRIPTORS.rstrip()))
        command = [daemon_path, "--config", config_path, "--log-target=console",
                   "--monitor", "--descriptors", descriptors_path]
        say(f"Starting accessoryd… ({' '.join(command)})")
        daemon = lab.start_daemon(command)
        try:
            daemon.wait_ready(timeout=60)
        except AssertionError as error:
            say(f"accessoryd did not become ready: {error}")
            _show_output(daemon, lab, say)
            return 1
        status_line = (daemon.notifications("STATUS") or ["(none)"])[-1]
        say(f"accessoryd is ready (READY=1, STATUS={status_line})")

        for round_number in range(1, READVERTISE_ROUNDS + 1):
            say(f"hci1 re-advertises the lamp ({round_number}/{READVERTISE_ROUNDS}) so scanners hear it again")
            lab.readvertise("hci1")
            lab.run(["sleep", "2"], timeout=10)

        say("Waiting for a Wi-Fi scan of wlan0 to hear the lamp's hotspot…")
        heard = any(line.startswith("wifi ") and "matches=" in line for line in daemon.output().splitlines())
        for _ in range(30):
            if heard:
                break
            lab.run(["sleep", "1"], timeout=10)
            heard = any(line.startswith("wifi ") and "matches=" in line for line in daemon.output().splitlines())
        say("accessoryd heard the hotspot and matched it" if heard else "no Wi-Fi scan result within 30 s")

        say("Stopping accessoryd (SIGTERM)…")
        exit_status = daemon.stop(timeout=30)
        stopping = "STOPPING=1 received" if daemon.notifications("STOPPING") else "no STOPPING=1"
        say(f"accessoryd stopped: exit status {exit_status}, {stopping}")
        _show_output(daemon, lab, say)
        status = 0 if exit_status == 0 else 1
    except ScenarioTimeout:
        say(f"demo: timed out after {DEMO_TIMEOUT} s")
    except Exception:
        say(f"demo: failed:\n{traceback.format_exc()}")
    finally:
        signal.alarm(TEARDOWN_TIMEOUT)
        try:
            scenario.teardown()
        except Exception:
            say(f"demo: teardown failed:\n{traceback.format_exc()}")
        signal.alarm(0)
    say("Demo finished." if status == 0 else "Demo finished with errors.")
    return status


def _describe_radios(lab, config, say):
    gateway = ", ".join(f"{i.name} (phy{i.phy}, {i.address})" for i in lab.wifi_interfaces())
    accessory = ", ".join(f"{h.interface} ({_address_in(lab, h.interface, h.netns)}, namespace '{h.netns}')"
                          for h in config.hotspots if h.netns)
    controllers = ", ".join(f"{c.name} ({c.address}{', up' if c.up else ''})"
                            for c in lab.bluetooth_controllers())
    say(f"Virtual radios: gateway Wi-Fi {gateway or 'none'}"
        + (f"; accessory Wi-Fi {accessory}" if accessory else "")
        + f"; Bluetooth LE {controllers or 'none'}")
    for hotspot in config.hotspots:
        ssid = _hostapd_value(hotspot.config_path, "ssid")
        where = f" in network namespace '{hotspot.netns}'" if hotspot.netns else ""
        say(f"Hotspot: hostapd serves SSID \"{ssid}\" on {hotspot.interface}{where}, "
            f"a separate host across the virtual air")
    for advertiser in config.advertisers:
        say(f"Advertiser on {advertiser.controller}: {_describe_advertising(advertiser.adv_data)}"
            f"; scan response: {_describe_advertising(advertiser.scan_rsp)}")


def _address_in(lab, interface, netns):
    result = lab.run(["cat", f"/sys/class/net/{interface}/address"], netns=netns, timeout=20)
    return result.stdout.strip() or "?"


def _show_output(daemon, lab, say):
    say("--- accessoryd output ---")
    say(_indent(daemon.output().rstrip() or "(no output)"))
    # A fresh boot: the VM's whole journal is this demo's, so journalctl needs no cursor.
    say("--- journalctl -o short-precise SYSLOG_IDENTIFIER=accessoryd ---")
    excerpt = lab.run(["journalctl", "--no-pager", "-o", "short-precise", "SYSLOG_IDENTIFIER=accessoryd"])
    say(_indent(excerpt.stdout.rstrip() or "(no entries)"))


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())


def _hostapd_value(path, key):
    with open(path) as handle:
        for line in handle:
            if line.strip().startswith(f"{key}="):
                return line.strip().split("=", 1)[1]
    return "?"


AD_TYPE_NAMES = {
    0x01: "flags", 0x07: "128-bit service UUID", 0x09: "name", 0x16: "service data (16-bit UUID)",
    0xFF: "manufacturer data",
}


def _describe_advertising(data):
    """AD structures in words, enough for a person to see what is on the air."""
    parts, offset = [], 0
    while offset < len(data) and data[offset] != 0:
        length = data[offset]
        if offset + 1 + length > len(data):
            parts.append("(truncated)")
            break
        ad_type, value = data[offset + 1], data[offset + 2:offset + 1 + length]
        name = AD_TYPE_NAMES.get(ad_type, f"type 0x{ad_type:02x}")
        if ad_type == 0x09:
            parts.append(f'{name} "{value.decode("utf-8", errors="replace")}"')
        elif ad_type == 0x07 and len(value) == 16:
            text = value[::-1].hex().upper()
            parts.append(f"{name} {text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}")
        else:
            parts.append(f"{name} {value.hex()}")
        offset += 1 + length
    return ", ".join(parts) or "(empty)"
