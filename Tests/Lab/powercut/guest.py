"""Inside the VM, one boot of the power-cut loop (Tests/Lab/power-cut runs it).

The grant store lives on a real ext4 file system on a virtio block device (the
host's image file, serial "state.ext4"), not on the host share. Each boot:

1. mounts it (ext4 replays its journal after the previous cut) and starts a
   system D-Bus and accessoryd with its state directory there;
2. reports what accessoryd made of the store (its log: "Loaded N grant(s)",
   or that it was damaged and set aside) and every accessory it lists through
   Admin1.ListAccessories, one `HAVE <address>` line each;
3. unless this is the last (verifying) boot: migrates one new accessory after
   another, each approved by the administrator over D-Bus, and prints
   `ACK <address>` the moment Approve's success reply arrives, until the host
   pulls the plug (SIGKILL of QEMU) at a moment of its choosing.

The console is the channel that survives the cut: the host reads these lines
live. Every line this script prints for the host starts with "PC| ".

Run as: /usr/bin/python3 Tests/Lab/powercut/guest.py PLAN.json
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
from labkit.notify import NotifyListener  # noqa: E402

WORK = "/run/powercut"
MOUNT = WORK + "/disk"
STATE = MOUNT + "/accessoryd"   # below the mount: the first boot makes it (mkdir), as outside systemd
APP = "power-cut"


def say(line):
    sys.stdout.write(f"PC| {line}\n")
    sys.stdout.flush()


def fail(why):
    say(f"ERROR {why}")
    sys.exit(2)


def state_disk():
    """The virtio block device vng made of the image (its serial: the image's name, state.ext4)."""
    for name in sorted(os.listdir("/sys/block")):
        try:
            with open(f"/sys/block/{name}/serial") as handle:
                if handle.read().strip() == "state.ext4":
                    return "/dev/" + name
        except OSError:
            continue
    return None


def run(argv, **kwargs):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def start_bus():
    os.makedirs("/run/dbus", exist_ok=True)
    os.makedirs("/etc/dbus-1/system.d", exist_ok=True)
    shutil.copy(os.path.join(REPO, "packaging", "dbus", "org.accessoryagent.conf"),
                "/etc/dbus-1/system.d/org.accessoryagent.conf")
    result = run(["dbus-daemon", "--system", "--fork"], timeout=60)
    if result.returncode != 0:
        fail(f"dbus-daemon: {result.stdout.strip()}")


def start_accessoryd(build_dir, boot, plan):
    os.makedirs(WORK + "/apps", exist_ok=True)
    with open(WORK + "/apps/power-cut.conf", "w") as handle:
        handle.write(f"[App]\nName={APP}\nUser=root\nSupports=Bluetooth\n")
    with open(WORK + "/accessoryd.conf", "w") as handle:
        # Grants as fast as the disk takes them: far past an app's request bound.
        handle.write("[Bluetooth]\nEnabled=no\n[Wi-Fi]\nEnabled=no\n"
                     "[Limits]\nRequestsPerMinute=100000000\nRequestBurst=100000000\n")
    notify = NotifyListener(WORK + "/notify.sock")
    environment = dict(os.environ, STATE_DIRECTORY=STATE, NOTIFY_SOCKET=notify.path)
    if plan.get("preload"):
        # The negative control (power-cut --without-fsync): fsync made a no-op by libeatmydata.
        environment["LD_PRELOAD"] = plan["preload"]
    log = open(f"{WORK}/accessoryd-{boot}.log", "wb")
    daemon = subprocess.Popen([os.path.join(build_dir, "accessoryd"), "--config", WORK + "/accessoryd.conf",
                               "--apps", WORK + "/apps", "--log-target=console"],
                              stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=environment)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if ("READY", "1") in notify.assignments:
            return daemon, log.name
        if daemon.poll() is not None:
            break
        time.sleep(0.2)
    with open(log.name, errors="replace") as handle:
        output = handle.read()
    fail(f"accessoryd not ready (exit status {daemon.poll()}): {output[-2000:]!r}")


def report_load(log_path):
    """What accessoryd said about the store at start: one LOAD line."""
    with open(log_path, errors="replace") as handle:
        text = handle.read()
    for line in text.splitlines():
        if "grant store" in line.lower() and ("damaged" in line.lower() or "cannot read" in line.lower()):
            say(f"LOAD damaged {line.strip()}")
            return
    match = re.search(r"Loaded (\d+) grant\(s\)", text)
    say(f"LOAD loaded {match.group(1)}" if match else "LOAD empty")


def main(plan_path):
    with open(plan_path) as handle:
        plan = json.load(handle)
    boot, first, write = plan["boot"], plan["first"], plan["write"]
    say(f"BOOT {boot} kernel {os.uname().release}")
    os.makedirs(MOUNT, exist_ok=True)
    device = state_disk()
    if device is None:
        fail("no virtio block device with serial state.ext4: " + " ".join(os.listdir("/sys/block")))
    # ext4 replays its journal here after a cut; what the kernel says about it goes to the host too.
    mounted = run(["mount", "-t", "ext4", device, MOUNT], timeout=120)
    if mounted.returncode != 0:
        fail(f"mount {device}: {mounted.stdout.strip()}")
    for line in run(["dmesg"]).stdout.splitlines():
        if "EXT4-fs" in line and ("recover" in line or "error" in line.lower() or "orphan" in line):
            say(f"KERNEL {line.strip()}")
    leftovers = sorted(name for name in os.listdir(STATE) if name != "grants") if os.path.isdir(STATE) else []
    say(f"FILES {' '.join(leftovers) or '-'}")

    start_bus()
    daemon, log_path = start_accessoryd(plan["build_dir"], boot, plan)
    report_load(log_path)

    import dbus  # Debian's python3-dbus
    bus = dbus.SystemBus()

    def iface(path, name):
        return dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), name)

    admin = iface("/org/accessoryagent", "org.accessoryagent.Admin1")
    listed = admin.ListAccessories()
    for accessory_id, app, name, state, identity, *_ in listed:
        say(f"HAVE {identity.split('/')[0]} {accessory_id} {state}")
    say(f"LISTED {len(listed)}")

    if not write:
        daemon.terminate()
        status = daemon.wait(timeout=60)
        run(["umount", MOUNT], timeout=120)
        say(f"DONE accessoryd exit status {status}")
        return 0

    session_path = iface("/org/accessoryagent", "org.accessoryagent.Manager1").OpenSession()
    session = iface(session_path, "org.accessoryagent.Session1")
    session.Activate()
    say("WRITING")
    for i in range(first, first + 1_000_000):
        address = "C0:FF:EE:%02X:%02X:%02X" % (i >> 16 & 255, i >> 8 & 255, i & 255)
        item = dbus.Struct((f"Sensor {i}", address, "", dbus.Dictionary({}, signature="ss")))
        session.Migrate(dbus.Array([item], signature="(sssa{ss})"))
        request = admin.ListRequests()[0][0]
        admin.Approve(request, dbus.UInt32(0), "")
        # The approver has its success reply: this grant is acknowledged.
        say(f"ACK {address}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
