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

    /// App A: a session, its activation's accessories, a picker for the Porch battery, and what it hears until the picker goes.
    static let pickerA = [
        ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
        ["show", "Battery sensor", "ServiceUUID=180F", "NameSubstring=Porch"], ["until", "PickerDidDismiss"],
    ]

    @Test func anApprovedAccessoryReachesOnlyTheAppThatAskedForIt() throws {
        let h = try ServiceHarness(manifests: [Self.appA, Self.appB])
        let release = h.directory + "/release-b"
        // B listens to every signal that reaches it for the whole story.
        let b = try h.startClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["listen", release],
        ], as: "daemon")
        h.pump { h.service.openSessions.count == 1 && h.service.openSessions[0].state == .active }

        let a = try h.startClient(Self.pickerA, as: "nobody")
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
            /org/accessoryagent/session/2
            []
            ok
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
        let again = try h.runClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["call", path, BusNames.properties, "Get", BusNames.accessory, "DisplayName"],
        ], as: "nobody")
        #expect(again == "/org/accessoryagent/session/3\n[\(path)]\nPorch battery\n")

        // B: none of it, through any call.
        let sessionA = "/org/accessoryagent/session/2"
        let bTries = try h.runClient([
            ["session"],
            ["call", path, BusNames.properties, "GetAll", BusNames.accessory],
            ["call", path, BusNames.introspectable, "Introspect"],
            ["call", "session", BusNames.session, "RemoveAccessory", path],
            ["call", "session", BusNames.session, "RenameAccessory", path, "mine", ""],
            ["call", "session", BusNames.session, "FinishAuthorization", path, ""],
            ["call", sessionA, BusNames.session, "Invalidate"],
            ["call", BusNames.root, BusNames.admin, "ListRequests"],
            ["call", BusNames.root, BusNames.admin, "Approve", "1", "1", ""],
            ["objects"],
        ], as: "daemon")
        #expect(bTries == """
            error org.freedesktop.DBus.Error.UnknownObject
            error org.freedesktop.DBus.Error.UnknownObject
            error org.accessoryagent.Error.invalidRequest
            error org.accessoryagent.Error.invalidRequest
            error org.accessoryagent.Error.invalidRequest
            error org.freedesktop.DBus.Error.UnknownObject
            error org.freedesktop.DBus.Error.AccessDenied
            error org.freedesktop.DBus.Error.AccessDenied
            [/org/accessoryagent/session/4]

            """)
        #expect(h.store.grants[grant.accessory]?.displayName == "Porch battery")

        // B's listener heard nothing of A's: no signal but its own Activated and State.
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(h.finish(b) == "/org/accessoryagent/session/1\n[]\nsignal Activated []\nsignal PropertiesChanged org.accessoryagent.Session1 {State=active} []\n")
    }
}
