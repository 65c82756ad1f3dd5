import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Issue 12: introspection's emits-change promise, held for a real property
/// cache. A GDBus proxy (python3-gi's Gio, its own connection, as a GLib app
/// has) on the app's accessory follows a rename by the administrator and
/// its session's State, from PropertiesChanged alone.
@Suite(.serialized) struct PropertyCacheTests {
    @Test func aGDBusProxyFollowsARenameAndTheSessionState() throws {
        let grant = Grant(accessory: AccessoryID(0xB1), app: PickerApprovalTests.appA.app, displayName: "Porch",
                          state: .authorized,
                          bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:70")!, addressType: .public))
        let h = try ServiceHarness(manifests: [PickerApprovalTests.appA], grants: [grant])
        let path = BusNames.path(of: grant.accessory)
        // Python on purpose: the point is a third-party property cache (GDBus's), not one of ours.
        let client = try h.bus.start(["/usr/bin/python3", "-c", """
            import sys
            from gi.repository import Gio, GLib
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            conn = Gio.DBusConnection.new_for_address_sync(sys.argv[1], flags, None, None)
            s = conn.call_sync("org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Manager1", "OpenSession",
                               None, None, Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
            def proxy(path, interface):
                return Gio.DBusProxy.new_sync(conn, Gio.DBusProxyFlags.NONE, None, "org.accessoryagent", path, interface, None)
            session = proxy(s, "org.accessoryagent.Session1")
            accessory = proxy("\(path)", "org.accessoryagent.Accessory1")
            print("before", session.get_cached_property("State").unpack(), accessory.get_cached_property("DisplayName").unpack(), flush=True)
            loop = GLib.MainLoop()
            def changed(proxy, changed, invalidated):
                values = changed.unpack()
                if proxy is session and "State" in values: print("state", session.get_cached_property("State").unpack(), flush=True)
                if proxy is accessory and "DisplayName" in values:
                    print("renamed", accessory.get_cached_property("DisplayName").unpack(), flush=True)
                    loop.quit()
            session.connect("g-properties-changed", changed)
            accessory.connect("g-properties-changed", changed)
            session.call_sync("Activate", None, Gio.DBusCallFlags.NONE, -1, None)
            GLib.timeout_add_seconds(30, loop.quit)
            loop.run()
            """, h.bus.address], as: "nobody")
        h.pump { h.service.openSessions.first?.state == .active }
        #expect(try h.accessoryctl(["rename", "00000000000000b1", "Front porch"]).status == 0)
        #expect(h.finish(client) == "before new Porch\nstate active\nrenamed Front porch\n")
    }
}
