#!/usr/bin/python3
"""The arm64 tier's checks, inside the booted arm64 image, in one boot.

The checks themselves are the amd64 tier's (checks.py, imported): idle
without radios, udev starting the service, READY=1, the service's user, the
app-sensor story, reload, the journal's catalog, purge. Added here: the
service's capabilities, and the installed arm64 accessoryd replaying every
capture of the tree to exactly the amd64 build's output. No Wi-Fi accessory
(hostapd, the lamp): the sensor story is the app path on a board; the radios
are still mac80211_hwsim (it starts the service) and btvirt's controllers,
attached through hci_uart (Debian's arm64 kernel has no hci_vhci).
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, "/usr/local/lib/system-test")
import checks as shared  # noqa: E402  (Tests/System/guest/checks.py)

EXPECT = "/usr/local/lib/system-test/expect.json"
CONSOLE = "/dev/ttyAMA0"  # the virt machine's PL011; checks.py writes to the PC's ttyS0


def console(text):
    for line in str(text).splitlines() or [""]:
        try:
            with open(CONSOLE, "w") as tty:
                tty.write(f"\n{shared.MARK}{line}\n")
        except OSError:
            pass
        print(line, flush=True)


shared.console = console  # say() and result() print through it

CAPABILITIES = {
    "CAP_CHOWN": 0, "CAP_DAC_OVERRIDE": 1, "CAP_DAC_READ_SEARCH": 2, "CAP_FOWNER": 3, "CAP_FSETID": 4,
    "CAP_KILL": 5, "CAP_SETGID": 6, "CAP_SETUID": 7, "CAP_SETPCAP": 8, "CAP_LINUX_IMMUTABLE": 9,
    "CAP_NET_BIND_SERVICE": 10, "CAP_NET_BROADCAST": 11, "CAP_NET_ADMIN": 12, "CAP_NET_RAW": 13,
    "CAP_IPC_LOCK": 14, "CAP_IPC_OWNER": 15, "CAP_SYS_MODULE": 16, "CAP_SYS_RAWIO": 17, "CAP_SYS_CHROOT": 18,
    "CAP_SYS_PTRACE": 19, "CAP_SYS_PACCT": 20, "CAP_SYS_ADMIN": 21,
}


def check_capabilities(expect):
    """CapEff of the main process is exactly the unit's AmbientCapabilities= (and it is not root)."""
    wanted = expect["capabilities"]
    assert wanted, "packaging/accessoryd.service names no AmbientCapabilities="
    mask = 0
    for name in wanted:
        mask |= 1 << CAPABILITIES[name]
    pid = int(shared.unit_properties(shared.SERVICE, "MainPID")["MainPID"])
    assert pid > 0, f"no main process: {shared.service_summary()}"
    with open(f"/proc/{pid}/status") as handle:
        status = handle.read()
    effective = int(re.search(r"^CapEff:\s+(\S+)", status, re.M).group(1), 16)
    bounding = int(re.search(r"^CapBnd:\s+(\S+)", status, re.M).group(1), 16)
    assert effective == mask, f"CapEff={effective:016x}, the unit grants {' '.join(wanted)} = {mask:016x}"
    assert bounding & ~mask == 0, f"CapBnd={bounding:016x} holds more than {' '.join(wanted)}"
    return f"CapEff=CapBnd={effective:016x}: {' '.join(wanted)}"


def check_replay_monitor(expect):
    """The installed (arm64) accessoryd replays each capture to the amd64 build's very output."""
    differing = []
    lines = 0
    for capture, replay in sorted(expect["replays"].items()):
        done = shared.sh(["/usr/sbin/accessoryd", "--replay", replay["file"], *expect["replay_args"]], timeout=300)
        lines += replay["amd64"].count("\n")
        if done.returncode != 0 or done.stdout != replay["amd64"]:
            differing.append(capture)
            name = os.path.basename(capture)
            with open(os.path.join(shared.LOGS, f"replay-{name}.arm64.out"), "w") as handle:
                handle.write(done.stdout + done.stderr)
            with open(os.path.join(shared.LOGS, f"replay-{name}.amd64.out"), "w") as handle:
                handle.write(replay["amd64"])
    assert not differing, \
        f"{len(differing)} of {len(expect['replays'])} captures replay differently from amd64: {', '.join(differing)}"
    return f"{len(expect['replays'])} captures, {lines} lines, byte-identical to the amd64 build's output"


BRIDGE = "/usr/local/lib/system-test/hci-uart-bridge"
BTVIRT_SOCKET = "/tmp/bt-server-le"  # btvirt -s: an LE-only controller per client


def start_bluetooth(count=2, attempts=3):
    """checks.py's start_bluetooth, for a kernel without hci_vhci (Debian's arm64): btvirt -s
    serves the controllers on a socket, hci-uart-bridge attaches each to the kernel through
    hci_uart (H4 on a pseudo-terminal), as a board's UART controller is. Same readiness:
    the kernel knows each address; hci1, the sensor's, is powered, hci0 left as it is."""
    for attempt in range(1, attempts + 1):
        shared.sh(["modprobe", "hci_uart"], check=True)
        if os.path.exists(BTVIRT_SOCKET):
            os.unlink(BTVIRT_SOCKET)
        btvirt = shared.spawn("btvirt", ["btvirt", "-s"])
        bridge = shared.spawn("hci-uart-bridge", [BRIDGE, "--socket", BTVIRT_SOCKET, "--count", str(count)])
        try:
            # The bridge attaches them one after the other, each again until its setup went through.
            shared.wait_until(lambda: shared.log_text("hci-uart-bridge").count(" ready ") >= count, 300,
                              f"{count} controllers set up through hci_uart")

            def initialised(index):
                address, up = shared.hci_info(index)
                if address == "00:00:00:00:00:00":
                    return False
                if index == 0:
                    return True
                if not up:
                    shared.hci_up(index)
                return up
            for index in range(count):
                shared.wait_until(lambda: initialised(index), 60, f"hci{index} to finish its init", interval=2)
            return [shared.hci_info(index)[0] for index in range(count)]
        except shared.Timeout:
            if attempt == attempts:
                raise
            shared.say(f"the controllers did not come up (attempt {attempt}); starting btvirt and the bridge again")
            for process in (bridge, btvirt):
                process.kill()
                process.wait()
            shared.wait_until(lambda: not shared.bluetooth_controllers(), 60, "the controllers to go away")


def prepare_sensor(state):
    """btvirt's controllers through hci_uart (hci0: the gateway's, hci1: the sensor's), lab-peripheral on hci1."""
    shared.say("bluetooth: btvirt -s, hci-uart-bridge: 2 LE controllers on hci_uart (hci0: the gateway's, "
               "hci1: the sensor's)")
    # Every HCI packet of both controllers, for the evidence (the host decodes it: btmon -r);
    # the monitor socket needs the Bluetooth core loaded, which hci_uart brings.
    shared.sh(["modprobe", "hci_uart"], check=True)
    shared.spawn("btmon", ["btmon", "-w", os.path.join(shared.LOGS, "btmon.btsnoop")])
    addresses = start_bluetooth()
    state["sensor_address"] = addresses[1]
    state["peripheral"] = shared.spawn("lab-peripheral", ["lab-peripheral", "serve", "--controller", "hci1",
                                                          "--value", shared.SENSOR_VALUE,
                                                          "--control", shared.SENSOR_CONTROL])
    shared.wait_until(lambda: "serving hci1" in shared.log_text("lab-peripheral"), 120,
                      "the sensor to advertise on hci1")
    # Heard at every advertising interval, as on the air. Trixie's kernel (6.12, as on
    # Raspberry Pi OS; the amd64 tiers boot bookworm's 6.1) counts an active scan enabled
    # through raw HCI, accessoryd's, as discovery: for the app's channel it then starts no
    # scan of its own and connects on the sensor's next report. btdev reports an
    # advertiser only when its advertising is enabled, so a sensor enabled once is heard
    # once, before the connect, and never again.
    shared.sensor_air(f"beacon {shared.FLAP_BEACON_MS}")
    shared.say(f"sensor {addresses[1]} advertising on hci1, re-enabled every {shared.FLAP_BEACON_MS} ms")


def sequence(expect):
    state = {}
    shared.describe_boot("arm64")
    shared.say(f"machine {os.uname().machine}; accessoryd "
               + shared.sh(["dpkg-query", "-W", "-f=${Version} ${Architecture}", "accessoryd"]).stdout)
    state["active_before_radios"] = shared.active_state() in ("active", "activating", "reloading")
    shared.check("idle-without-radios", shared.check_idle_without_radios)
    shared.check("udev-starts", shared.check_udev_starts, state)
    shared.check("ready", shared.check_ready)
    shared.check("service-user", shared.check_service_user)
    shared.check("capabilities", check_capabilities, expect)
    try:
        prepare_sensor(state)
    except AssertionError as error:
        shared.result("app-sensor", False, f"not run: the sensor could not be set up: {error}")
    else:
        shared.check("app-sensor", shared.check_app_sensor, state)
    shared.check("replay-monitor", check_replay_monitor, expect)
    shared.check("reload", shared.check_reload)
    shared.check("journal-catalog", shared.check_journal_catalog, expect, state)
    shared.check("purge", shared.check_purge)


def main():
    for directory in (shared.STATE, shared.LOGS, shared.RUNTIME):
        os.makedirs(directory, exist_ok=True)
    with open(EXPECT) as handle:
        expect = json.load(handle)
    shared.signal.signal(shared.signal.SIGALRM, shared.on_alarm)
    shared.signal.alarm(shared.BOOT_TIMEOUT)
    try:
        sequence(expect)
    except Exception:
        shared.say(f"the checks stopped:\n{shared.traceback.format_exc()}")
    finally:
        shared.signal.alarm(0)
        for name, process in shared.CHILDREN:
            if process.poll() is None:
                process.terminate()
        for name, process in shared.CHILDREN:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        os.sync()
        shared.signal.alarm(240)
        try:
            shared.save_evidence("arm64")
            shared.say("evidence written to the second disk")
        except Exception:
            shared.say(f"evidence could not be written:\n{shared.traceback.format_exc()}")
        shared.signal.alarm(0)
        shared.say("boot arm64: done, powering off")
        subprocess.run(["systemctl", "poweroff", "--no-block"], timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
