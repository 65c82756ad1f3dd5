import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Every AccessorySetupKit error path, as an app meets it on the bus.
@Suite(.serialized) struct SetupErrorPathTests {
    static let app = AppManifest(app: "acme", user: "nobody", supports: [.bluetooth, .wifi],
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"],
                                 ssidPrefixes: [Array("ACME-".utf8)])

    /// The test client's ShowPicker for one item named `name` with this descriptor (and settings, setup options).
    static func show(_ name: String, _ descriptor: [String], settings: [String] = [], options: [String] = []) -> [String] {
        ["show", name] + descriptor + (settings.isEmpty ? [] : ["settings"] + settings) + (options.isEmpty ? [] : ["options"] + options)
    }
    static func show(_ descriptor: [String], settings: [String] = [], options: [String] = []) -> [String] {
        show("Acme sensor", descriptor, settings: settings, options: options)
    }
    static let acme = ["ServiceUUID=180F", "NameSubstring=Acme"]

    /// Python, for the client that sends wrong argument types on purpose
    /// (`ActionableErrorTests`): an activated session `s` and `message(...)`.
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
        let output = try h.runClient([
            ["session"], ["explain"],
            Self.show("x", ["ServiceUUID=FEAA", "NameSubstring=Acme"]),
            Self.show("x", ["SSID=ACME-1", "SSIDPrefix=ACME-"]),
            Self.show("x", ["Colour=red"]),
            Self.show("x", Self.acme, options: ["teleport"]),
            Self.show("x", Self.acme, settings: ["DiscoveryTimeout=soon"]),
        ], as: "nobody")
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        let refused = "error org.accessoryagent.Error.invalidRequest "
        #expect(lines[0].hasPrefix(refused))
        #expect(lines[0].contains("FEAA"))
        #expect(lines[1].hasPrefix(refused))
        #expect(lines[1].contains("ssid") || lines[1].contains("SSID"))
        #expect(lines[2] == refused + "display item \"x\": unknown descriptor key Colour; the keys are "
            + DescriptorFields.keys.joined(separator: ", "))
        #expect(lines[3].contains("display item \"x\": setup option \"teleport\" is unknown; the options are rename, "))
        #expect(lines[4].contains("picker settings: DiscoveryTimeout=\"soon\" is not short, medium, long, unbounded or a number of seconds"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func aSecondPickerWhileOneIsOpenIsPickerAlreadyActive() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.runClient([["session"], Self.show(Self.acme), Self.show(["SSIDPrefix=ACME-"])], as: "nobody")
        #expect(output == "ok\nerror org.accessoryagent.Error.pickerAlreadyActive\n")
        // The first picker ended with its session when the app left.
        h.pump { h.service.center.requests.isEmpty }
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func aDeniedRequestIsUserCancelled() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([["session"], Self.show(Self.acme), ["until", "PickerDidDismiss"]], as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        let denied = try h.accessoryctl(["deny", "\(number)"])
        #expect(denied.status == 0, "\(denied.err)")
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.userCancelled denied by administrator root (uid 0)\n"))
        #expect(h.store.grants.isEmpty)
    }

    @Test func nothingFoundInTimeIsDiscoveryTimeout() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([["session"], Self.show(Self.acme, settings: ["DiscoveryTimeout=1"]), ["until", "PickerDidDismiss"]],
                                    as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        h.scheduler.advance(by: .seconds(2))
        #expect(h.finish(app).hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.discoveryTimeout nothing matching was found within the discovery timeout\n"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func finishingDiscoveryWithNothingToShowIsDiscoveryTimeout() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([
            ["session"], Self.show(Self.acme, settings: ["DiscoveryTimeout=unbounded"]),
            ["call", "session", BusNames.session, "FinishPickerDiscovery"], ["until", "PickerDidDismiss"],
        ], as: "nobody")
        let output = h.finish(app)
        #expect(output.hasPrefix("ok\nok\n"), "the picker shows, and FinishPickerDiscovery itself succeeds")
        #expect(output.hasSuffix("signal PickerDidDismiss org.accessoryagent.Error.discoveryTimeout the app finished discovery with nothing to show\n"))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func finishingDiscoveryKeepsTheCandidatesForTheDecision() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let app = try h.startClient([
            ["session"], Self.show(Self.acme, settings: ["DiscoveryTimeout=unbounded"]), ["until", "PickerDidDismiss"],
        ], as: "nobody")
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
        let output = try h.runClient([
            ["session"], ["call", "session", BusNames.session, "Invalidate"], ["call", "session", BusNames.session, "Activate"],
            Self.show(Self.acme), ["call", "session", BusNames.session, "Invalidate"],
        ], as: "nobody")
        #expect(output == "ok\nerror org.accessoryagent.Error.invalidated\nerror org.accessoryagent.Error.invalidated\nerror org.accessoryagent.Error.invalidated\n")
    }

    @Test func unknownAccessoriesAndRequestsAreNamedAsSuch() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.runClient([
            ["session"], ["explain"],
            ["call", "session", BusNames.session, "RemoveAccessory", "/org/accessoryagent/accessory/00000000000000ff"],
            ["call", "session", BusNames.session, "RemoveAccessory", "/org/accessoryagent/session/1"],
            ["update", "1", "x"],
        ], as: "nobody")
        #expect(output == """
            error org.accessoryagent.Error.invalidRequest unknown accessory 00000000000000ff
            error org.accessoryagent.Error.invalidRequest unknown accessory /org/accessoryagent/session/1
            error org.accessoryagent.Error.invalidRequest no picker is open

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
        // A valid item: what is refused is the session that was never activated.
        let output = try h.runClient([["call", BusNames.root, BusNames.manager, "OpenSession"], Self.show(Self.acme)], as: "nobody")
        #expect(output == "\(BusNames.path(ofSession: 1))\nerror org.accessoryagent.Error.invalidRequest\n")
    }
}
