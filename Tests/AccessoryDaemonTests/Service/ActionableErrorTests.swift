import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Errors an outsider can act on (issue 15), as an app meets them on a real
/// bus: wrong argument types are the bus's standard `InvalidArgs` naming the
/// argument, on every object; an `invalidRequest` names the field, the value
/// and the rule; and a passphrase is judged before any radio is looked for.
@Suite(.serialized) struct ActionableErrorTests {
    static let camera = Grant(accessory: AccessoryID(0xD2), app: "acme", displayName: "Camera", state: .authorized,
                              ssid: SSID("ACME-Cam"))
    static let cameraPath = "/org/accessoryagent/accessory/00000000000000d2"
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs: "

    @Test func wrongArgumentTypesAreInvalidArgsNamingTheArgumentOnEveryInterface() throws {
        let h = try ServiceHarness(manifests: [SetupErrorPathTests.app], grants: [Self.camera])
        let session1 = "org.accessoryagent.Session1"
        // Python on purpose: arguments of the wrong types, which the test client, typed
        // by AccessoryWire's declarations, cannot send.
        let output = try h.run(SetupErrorPathTests.session + """
            accessory = "\(Self.cameraPath)"
            print(message(manager, "org.accessoryagent.Manager1", "OpenSession", "extra"))
            print(message(s, "\(session1)", "RemoveAccessory", accessory))
            print(message(s, "\(session1)", "OpenBluetoothChannel", dbus.ObjectPath(accessory), dbus.UInt32(0)))
            print(message(s, "\(session1)", "JoinHotspot", dbus.ObjectPath(accessory)))
            print(message(s, "\(session1)", "ShowPicker", dbus.Array([], signature="(ss)"), dbus.Dictionary({}, signature="ss")))
            print(message(s, "\(session1)", "Activate", "now"))
            print(message(s, "org.freedesktop.DBus.Properties", "Get", dbus.UInt32(1), "State"))
            print(message(accessory, "org.freedesktop.DBus.Properties", "GetAll", dbus.Boolean(True)))
            """, as: "nobody")
        #expect(output == """
            \(Self.invalidArgs)argument 1: OpenSession takes no arguments, got 's' more
            \(Self.invalidArgs)argument 1 (accessory): expected 'o', got 's'
            \(Self.invalidArgs)argument 2 (psm): expected 'q', got 'u'
            \(Self.invalidArgs)argument 2 (passphrase): expected 's', got nothing
            \(Self.invalidArgs)argument 1 (items): expected 'a(ssa{ss}asas)', got 'a(ss)'
            \(Self.invalidArgs)argument 1: Activate takes no arguments, got 's' more
            \(Self.invalidArgs)argument 1: expected 's', got 'u'
            \(Self.invalidArgs)argument 1: expected 's', got 'b'

            """)
        // Nothing was done with them: the grant is still there.
        #expect(h.store.grants.count == 1)
    }

    @Test func adminMethodsAnswerInvalidArgsToBusctlToo() throws {
        let h = try ServiceHarness(manifests: [SetupErrorPathTests.app])
        let refusals = try [
            ["Allow", "ss", "acme", "60"],
            ["ListCandidates", "s", "1"],
            ["RegisterAgent", "s", "/agent"],
        ].map { arguments in
            try busctlError(h, ["call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Admin1"] + arguments)
        }
        #expect(refusals == [
            "argument 2 (seconds): expected 'u', got 's'",
            "argument 1 (request): expected 'u', got 's'",
            "argument 1 (agent): expected 'o', got 's'",
        ])
    }

    @Test func aWrongLengthPassphraseIsInvalidRequestWithoutAnyWiFiInterface() throws {
        let h = try ServiceHarness(manifests: [SetupErrorPathTests.app], grants: [Self.camera])
        #expect(h.service.hotspots == nil)
        let output = try h.runClient([["session"], ["explain"]] + ["short", String(repeating: "x", count: 64), "long enough"].map {
            ["call", "session", BusNames.session, "JoinHotspot", Self.cameraPath, $0]
        }, as: "nobody")
        #expect(output == """
            error org.accessoryagent.Error.invalidRequest passphrase: 5 bytes long; a WPA2 passphrase is 8 to 63 printable ASCII characters, or 64 hex digits
            error org.accessoryagent.Error.invalidRequest passphrase: 64 bytes long, so a raw PSK, with a non-hex digit at byte 0; a WPA2 passphrase is 8 to 63 printable ASCII characters, or 64 hex digits
            error org.accessoryagent.Error.connectionFailed no Wi-Fi interface to join with

            """)
        // The secret itself is never quoted back.
        #expect(!output.contains("short"))
    }

    @Test func anUnknownRenameOptionIsTheOneNamed() throws {
        let h = try ServiceHarness(manifests: [SetupErrorPathTests.app], grants: [Self.camera])
        let output = try h.runClient([
            ["session"], ["explain"],
            ["call", "session", BusNames.session, "RenameAccessory", Self.cameraPath, "Porch", "ssid,wifi\u{1B}[2J"],
            SetupErrorPathTests.show("Cam", ["SSIDPrefix=ACME-"]) + ["renames", "bssid"],
        ], as: "nobody")
        #expect(output == #"""
            error org.accessoryagent.Error.invalidRequest rename option "wifi\x1B[2J" is unknown; the only one is ssid
            error org.accessoryagent.Error.invalidRequest display item "Cam": rename option "bssid" is unknown; the only one is ssid

            """#)
        #expect(h.store.grants.values.first?.displayName == "Camera")
    }

    @Test func invalidRequestsNameTheFieldTheValueAndTheRule() throws {
        let h = try ServiceHarness(manifests: [SetupErrorPathTests.app])
        let long = String(repeating: "z", count: 200)
        let output = try h.runClient([
            ["session"], ["explain"],
            SetupErrorPathTests.show("Cam", ["SSIDPrefix=ACME-"], settings: ["Colour=red"]),
            SetupErrorPathTests.show("Cam", ["SSIDPrefix=ACME-"], settings: ["FilterDiscoveryResults=\(long)"]),
            ["migrate", "Old", "", ""],
        ], as: "nobody")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines == [
            "error org.accessoryagent.Error.invalidRequest picker settings: key \"Colour\" is unknown; the keys are DiscoveryTimeout, FilterDiscoveryResults",
            "error org.accessoryagent.Error.invalidRequest picker settings: FilterDiscoveryResults=\"\(String(long.prefix(64)))\"… is not true or false",
            "error org.accessoryagent.Error.invalidRequest migration item \"Old\": Bluetooth address \"\" and SSID \"\": give exactly one of the two",
        ])
    }

    /// busctl's complaint (stderr, `Call failed: …`) without the prefix.
    private func busctlError(_ h: ServiceHarness, _ arguments: [String]) throws -> String {
        let (process, _, errors) = try h.bus.busctl(arguments)
        h.pump { !process.isRunning }
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Call failed: ", with: "")
    }
}
