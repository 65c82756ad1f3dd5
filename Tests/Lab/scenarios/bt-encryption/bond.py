"""Bonds ADAPTER (a BlueZ object path) with PEER through bluetoothd's D-Bus API, answering
as a NoInputNoOutput agent (LE Secure Connections, Just Works), and prints
`bonded Paired=.. Bonded=..` or `pair failed NAME: MESSAGE`. `--remove` removes PEER from
ADAPTER instead. The lab's stand-in for what accessoryd does in the bluetoothd mode."""

import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

AGENT = "/lab/bond/agent"


class Agent(dbus.service.Object):
    """Says yes to whatever bluetoothd asks (the lab's peripheral side included)."""

    @dbus.service.method("org.bluez.Agent1", in_signature="", out_signature="")
    def Release(self):
        pass

    @dbus.service.method("org.bluez.Agent1", in_signature="ou", out_signature="")
    def RequestConfirmation(self, device, passkey):
        print(f"agent confirms {passkey:06d} for {device}", flush=True)

    @dbus.service.method("org.bluez.Agent1", in_signature="o", out_signature="")
    def RequestAuthorization(self, device):
        print(f"agent authorizes {device}", flush=True)

    @dbus.service.method("org.bluez.Agent1", in_signature="", out_signature="")
    def Cancel(self):
        print("agent cancelled", flush=True)


def main():
    remove = "--remove" in sys.argv
    adapter_path, peer = [a for a in sys.argv[1:] if a != "--remove"]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    device_path = adapter_path + "/dev_" + peer.replace(":", "_")
    adapter = dbus.Interface(bus.get_object("org.bluez", adapter_path), "org.bluez.Adapter1")
    if remove:
        try:
            adapter.RemoveDevice(device_path)
            print(f"removed {device_path}", flush=True)
        except dbus.DBusException as error:
            print(f"remove: {error.get_dbus_name()}", flush=True)
        return 0
    Agent(bus, AGENT)
    manager = dbus.Interface(bus.get_object("org.bluez", "/org/bluez"), "org.bluez.AgentManager1")
    manager.RegisterAgent(AGENT, "NoInputNoOutput")
    manager.RequestDefaultAgent(AGENT)
    adapter.SetDiscoveryFilter({"Transport": "le"})
    adapter.StartDiscovery()
    loop = GLib.MainLoop()
    status = {"code": 1}

    def pair_when_found():
        try:
            bus.get_object("org.bluez", device_path).Get(
                "org.bluez.Device1", "Address", dbus_interface="org.freedesktop.DBus.Properties")
        except dbus.DBusException:
            return True  # not discovered yet: ask again
        adapter.StopDiscovery()

        def paired():
            properties = bus.get_object("org.bluez", device_path).GetAll(
                "org.bluez.Device1", dbus_interface="org.freedesktop.DBus.Properties")
            print(f"bonded Paired={bool(properties['Paired'])} Bonded={bool(properties['Bonded'])}", flush=True)
            status["code"] = 0
            # bluetoothd keeps the link (and its own GATT client on it) after pairing: end it,
            # as the channel is the app's to open.
            dbus.Interface(bus.get_object("org.bluez", device_path), "org.bluez.Device1").Disconnect(
                reply_handler=loop.quit, error_handler=lambda error: loop.quit())

        def failed(error):
            print(f"pair failed {error.get_dbus_name()}: {error.get_dbus_message()}", flush=True)
            loop.quit()

        dbus.Interface(bus.get_object("org.bluez", device_path), "org.bluez.Device1").Pair(
            reply_handler=paired, error_handler=failed, timeout=60)
        return False

    GLib.timeout_add(500, pair_when_found)
    GLib.timeout_add_seconds(90, loop.quit)
    loop.run()
    return status["code"]


if __name__ == "__main__":
    sys.exit(main())
