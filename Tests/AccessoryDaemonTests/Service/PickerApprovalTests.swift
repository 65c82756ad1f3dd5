import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Issue 6's acceptance on a real dbus-daemon: two apps under two unix
/// users; app A's picker is approved by the administrator; app B sees none
/// of it through any call, signal or property.
@Suite(.serialized) struct PickerApprovalTests {
    static let appA = AppManifest(app: "sensor-logger", user: "nobody", supports: [.bluetooth, .wifi],
                                  bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Porch"], ssidPrefixes: [Array("Lamp-".utf8)])
    static let appB = AppManifest(app: "lock-controller", user: "daemon", supports: .bluetooth,
                                  bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])

    static let pickerA = """
        s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
        print("activated", text(call(s, "org.accessoryagent.Session1", "Activate")), flush=True)
        item = dbus.Struct(("Battery sensor", "", dbus.Dictionary({"ServiceUUID": "180F", "NameSubstring": "Porch"}, signature="ss"),
                            dbus.Array([], signature="s"), dbus.Array([], signature="s")))
        print("show", call(s, "org.accessoryagent.Session1", "ShowPicker", [item], dbus.Dictionary({}, signature="ss")), flush=True)
        run(["PickerDidDismiss"])
        """

    @Test func anApprovedAccessoryReachesOnlyTheAppThatAskedForIt() throws {
        let h = try ServiceHarness(manifests: [Self.appA, Self.appB])
        let release = h.directory + "/release-b"
        // B listens to every signal that reaches it for the whole story.
        let b = try h.start("""
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            print("activated", text(call(s, "org.accessoryagent.Session1", "Activate")), flush=True)
            def poll():
                import os
                if os.path.exists("\(release)"): loop.quit(); return False
                return True
            GLib.timeout_add(50, poll)
            run([], seconds=60)
            """, as: "daemon")
        h.pump { h.service.openSessions.count == 1 && h.service.openSessions[0].state == .active }

        let a = try h.start(Self.pickerA, as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        guard let request = h.service.center.requests.values.first else {
            Issue.record("no request; app A printed: \(h.finish(a))")
            return
        }
        #expect(request.app == "sensor-logger")

        // A lock advertising another service is not a candidate; the battery sensor is, once.
        h.hear("C0:FF:EE:00:00:02", name: "Door", service: 0x1812)
        h.hear("C0:FF:EE:00:00:01", name: "Porch battery", service: 0x180F)
        h.scheduler.advance(by: .milliseconds(100))
        h.hear("C0:FF:EE:00:00:01", name: "Porch battery", service: 0x180F)
        #expect(h.service.center.requests[request.number]?.candidates.count == 1)

        // The administrator sees who asks for what, and approves through accessoryctl.
        let listed = try h.accessoryctl(["requests"])
        #expect(listed.status == 0)
        #expect(listed.out.contains("sensor-logger"))
        #expect(listed.out.contains("Porch battery"))
        #expect(listed.out.contains("C0:FF:EE:00:00:01"))
        #expect(!listed.out.contains("Door"))
        let approved = try h.accessoryctl(["approve", "\(request.number)", "1"])
        #expect(approved.status == 0, "\(approved.err)")
        let grant = try #require(h.store.grants.values.first)
        #expect(approved.out.contains("\(grant.accessory)"))
        let path = BusNames.path(of: grant.accessory)

        #expect(h.finish(a) == """
            activated []
            show None
            signal Activated []
            signal PropertiesChanged org.accessoryagent.Session1 {State=active} []
            signal PickerDidPresent
            signal InterfacesAdded \(path) {org.accessoryagent.Accessory1={DisplayName=Porch battery,State=authorized,App=sensor-logger,BluetoothAddress=C0:FF:EE:00:00:01,BluetoothAddressType=public,SSID=,Descriptor={ServiceUUID=180F,NameSubstring=Porch},BridgingIdentifier=,Present=true,RSSI=-50}}
            signal AccessoryAdded \(path)
            signal PickerDidDismiss  \("")

            """)
        #expect(grant.app == "sensor-logger")
        #expect(grant.bluetooth?.address == HardwareAddress("C0:FF:EE:00:00:01"))

        // Reconnecting, A finds it in `activated`, and can read it.
        let again = try h.run("""
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            print(text(call(s, "org.accessoryagent.Session1", "Activate")))
            print(call("\(path)", "org.freedesktop.DBus.Properties", "Get", "org.accessoryagent.Accessory1", "DisplayName"))
            """, as: "nobody")
        #expect(again == "[\(path)]\nPorch battery\n")

        // B: none of it, through any call.
        let sessionA = "/org/accessoryagent/session/2"
        let bTries = try h.run("""
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, "org.accessoryagent.Session1", "Activate")
            print(call("\(path)", "org.freedesktop.DBus.Properties", "GetAll", "org.accessoryagent.Accessory1"))
            print(call("\(path)", "org.freedesktop.DBus.Introspectable", "Introspect"))
            print(call(s, "org.accessoryagent.Session1", "RemoveAccessory", dbus.ObjectPath("\(path)")))
            print(call(s, "org.accessoryagent.Session1", "RenameAccessory", dbus.ObjectPath("\(path)"), "mine", dbus.Array([], signature="s")))
            print(call(s, "org.accessoryagent.Session1", "FinishAuthorization", dbus.ObjectPath("\(path)"), dbus.Dictionary({}, signature="ss")))
            print(call("\(sessionA)", "org.accessoryagent.Session1", "Invalidate"))
            print(call(manager, "org.accessoryagent.Admin1", "ListRequests"))
            print(call(manager, "org.accessoryagent.Admin1", "Approve", dbus.UInt32(1), dbus.UInt32(1), ""))
            objects = call(manager, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            print(sorted(str(o) for o in objects))
            """, as: "daemon")
        #expect(bTries == """
            error org.freedesktop.DBus.Error.UnknownObject
            error org.freedesktop.DBus.Error.UnknownObject
            error org.accessoryagent.Error.invalidRequest
            error org.accessoryagent.Error.invalidRequest
            error org.accessoryagent.Error.invalidRequest
            error org.freedesktop.DBus.Error.UnknownObject
            error org.freedesktop.DBus.Error.AccessDenied
            error org.freedesktop.DBus.Error.AccessDenied
            ['/org/accessoryagent/session/4']

            """)
        #expect(h.store.grants[grant.accessory]?.displayName == "Porch battery")

        // B's listener heard nothing of A's: no signal but its own Activated and State.
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(h.finish(b) == "activated []\nsignal Activated []\nsignal PropertiesChanged org.accessoryagent.Session1 {State=active} []\n")
    }
}
