import AccessoryCore
import AccessoryPlatform
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Every AccessorySetupKit error path, as an app meets it on the bus.
@Suite(.serialized) struct SetupErrorPathTests {
    static let app = AppManifest(app: "acme", user: "nobody", supports: [.bluetooth, .wifi],
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"],
                                 ssidPrefixes: [Array("ACME-".utf8)])

    /// Python: an activated session `s` and `show(descriptor, settings)`.
    static let session = """
        s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
        call(s, "org.accessoryagent.Session1", "Activate")
        def item(name, descriptor, options=[]):
            return dbus.Struct((name, "", dbus.Dictionary(descriptor, signature="ss"), dbus.Array(options, signature="s"), dbus.Array([], signature="s")))
        def show(descriptor, settings={}, options=[]):
            return call(s, "org.accessoryagent.Session1", "ShowPicker", [item("Acme sensor", descriptor, options)], dbus.Dictionary(settings, signature="ss"))
        def message(path, interface, method, *args):
            try:
                getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface), method)(*args)
                return "ok"
            except dbus.DBusException as e:
                return e.get_dbus_name() + ": " + e.get_dbus_message()

        """

    @Test func descriptorsOutsideTheRulesOrTheManifestAreRefusedWithTheirReason() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.run(Self.session + """
            print(message(s, "org.accessoryagent.Session1", "ShowPicker", [item("x", {"ServiceUUID": "FEAA", "NameSubstring": "Acme"})], dbus.Dictionary({}, signature="ss")))
            print(message(s, "org.accessoryagent.Session1", "ShowPicker", [item("x", {"SSID": "ACME-1", "SSIDPrefix": "ACME-"})], dbus.Dictionary({}, signature="ss")))
            print(message(s, "org.accessoryagent.Session1", "ShowPicker", [item("x", {"Colour": "red"})], dbus.Dictionary({}, signature="ss")))
            print(message(s, "org.accessoryagent.Session1", "ShowPicker", [item("x", {"ServiceUUID": "180F", "NameSubstring": "Acme"}, ["teleport"])], dbus.Dictionary({}, signature="ss")))
            print(message(s, "org.accessoryagent.Session1", "ShowPicker", [item("x", {"ServiceUUID": "180F", "NameSubstring": "Acme"})], dbus.Dictionary({"DiscoveryTimeout": "soon"}, signature="ss")))
            """, as: "nobody")
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        #expect(lines[0].hasPrefix("org.accessoryagent.Error.invalidRequest: "))
        #expect(lines[0].contains("FEAA"))
        #expect(lines[1].hasPrefix("org.accessoryagent.Error.invalidRequest: "))
        #expect(lines[1].contains("ssid") || lines[1].contains("SSID"))
        #expect(lines[2] == "org.accessoryagent.Error.invalidRequest: display item \"x\": unknown descriptor key Colour; the keys are "
            + DescriptorFields.keys.joined(separator: ", "))
        #expect(lines[3].contains("display item \"x\": setup option \"teleport\" is unknown; the options are rename, "))
        #expect(lines[4].contains("picker settings: DiscoveryTimeout=\"soon\" is not short, medium, long, unbounded or a number of seconds"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func aSecondPickerWhileOneIsOpenIsPickerAlreadyActive() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.run(Self.session + """
            print(show({"ServiceUUID": "180F", "NameSubstring": "Acme"}))
            print(show({"SSIDPrefix": "ACME-"}))
            """, as: "nobody")
        #expect(output == "None\nerror org.accessoryagent.Error.pickerAlreadyActive\n")
        // The first picker ended with its session when the app left.
        h.pump { h.service.center.requests.isEmpty }
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func aDeniedRequestIsUserCancelled() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.start(Self.session + """
            show({"ServiceUUID": "180F", "NameSubstring": "Acme"})
            run(["PickerDidDismiss"])
            """, as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        let denied = try h.accessoryctl(["deny", "\(number)"])
        #expect(denied.status == 0, "\(denied.err)")
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.userCancelled denied by administrator root (uid 0)\n"))
        #expect(h.store.grants.isEmpty)
    }

    @Test func nothingFoundInTimeIsDiscoveryTimeout() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.start(Self.session + """
            show({"ServiceUUID": "180F", "NameSubstring": "Acme"}, {"DiscoveryTimeout": "1"})
            run(["PickerDidDismiss"])
            """, as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.scheduler.advance(by: .seconds(2))
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.discoveryTimeout nothing matching was found within the discovery timeout\n"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func finishingDiscoveryWithNothingToShowIsDiscoveryTimeout() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.start(Self.session + """
            show({"ServiceUUID": "180F", "NameSubstring": "Acme"}, {"DiscoveryTimeout": "unbounded"})
            print(call(s, "org.accessoryagent.Session1", "FinishPickerDiscovery"), flush=True)
            run(["PickerDidDismiss"])
            """, as: "nobody")
        let output = h.finish(app)
        #expect(output.hasPrefix("None\n"), "FinishPickerDiscovery itself succeeds")
        #expect(output.hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.discoveryTimeout the app finished discovery with nothing to show\n"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func finishingDiscoveryKeepsTheCandidatesForTheDecision() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.start(Self.session + """
            show({"ServiceUUID": "180F", "NameSubstring": "Acme"}, {"DiscoveryTimeout": "unbounded"})
            run(["PickerDidDismiss"])
            """, as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.hear("C0:FF:EE:00:00:21", name: "Acme 21", service: 0x180F)
        let session = try #require(h.service.openSessions.first)
        try h.service.center.finishDiscovery(session: session.number)
        let number = try #require(h.service.center.requests.keys.first)
        // Heard after the end of discovery: not offered.
        h.hear("C0:FF:EE:00:00:22", name: "Acme 22", service: 0x180F)
        #expect(h.service.center.requests[number]?.visibleCandidates.map(\.advertisedName) == ["Acme 21"])
        #expect(try h.accessoryctl(["approve", "\(number)", "1"]).status == 0)
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss  \n"))
        #expect(h.store.grants.count == 1)
    }

    @Test func anInvalidatedSessionStaysDead() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.run(Self.session + """
            print(call(s, "org.accessoryagent.Session1", "Invalidate"))
            print(call(s, "org.accessoryagent.Session1", "Activate"))
            print(show({"ServiceUUID": "180F", "NameSubstring": "Acme"}))
            print(call(s, "org.accessoryagent.Session1", "Invalidate"))
            """, as: "nobody")
        #expect(output == "None\nerror org.accessoryagent.Error.invalidated\nerror org.accessoryagent.Error.invalidated\nerror org.accessoryagent.Error.invalidated\n")
    }

    @Test func unknownAccessoriesAndRequestsAreNamedAsSuch() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.run(Self.session + """
            print(message(s, "org.accessoryagent.Session1", "RemoveAccessory", dbus.ObjectPath("/org/accessoryagent/accessory/00000000000000ff")))
            print(message(s, "org.accessoryagent.Session1", "RemoveAccessory", dbus.ObjectPath("/org/accessoryagent/session/1")))
            print(message(s, "org.accessoryagent.Session1", "UpdatePicker", dbus.Array([(dbus.UInt32(1), "x", "")], signature="(uss)")))
            """, as: "nobody")
        #expect(output == """
            org.accessoryagent.Error.invalidRequest: unknown accessory 00000000000000ff
            org.accessoryagent.Error.invalidRequest: unknown accessory /org/accessoryagent/session/1
            org.accessoryagent.Error.invalidRequest: no picker is open

            """)
        let removed = try h.accessoryctl(["remove", "00000000000000ff"])
        #expect(removed.status == 1)
        #expect(removed.err.contains("invalidRequest"))
        let approved = try h.accessoryctl(["approve", "7", "1"])
        #expect(approved.status == 1)
        #expect(approved.err.contains("no pending request 7"))
    }

    @Test func aPickerBeforeActivationIsRefused() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.run("""
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            print(call(s, "org.accessoryagent.Session1", "ShowPicker", dbus.Array([], signature="(ssa{ss}asas)"), dbus.Dictionary({}, signature="ss")))
            """, as: "nobody")
        #expect(output == "error org.accessoryagent.Error.invalidRequest\n")
    }
}
