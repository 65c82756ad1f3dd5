import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Sessions on a real dbus-daemon, with apps played by the test client
/// (Tests/TestClient) running as root and as the unprivileged `nobody`.
@Suite(.serialized) struct AccessoryServiceTests {
    static let rootApp = AppManifest(app: "root-app", user: "root", supports: .bluetooth,
                                     bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])
    static let grants = [
        Grant(accessory: AccessoryID(0xA1), app: "root-app", displayName: "Porch", state: .authorized),
        Grant(accessory: AccessoryID(0xB2), app: "other-app", displayName: "Gate", state: .authorized),
    ]

    @Test func anAppOpensAndActivatesASessionAndSeesOnlyItsAccessories() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp], grants: Self.grants)
        let output = try h.runClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"],
            ["call", "session", BusNames.properties, "Get", BusNames.session, "State"],
            ["call", "session", BusNames.session, "Activate"],
            ["call", "session", BusNames.properties, "Get", BusNames.session, "State"],
            ["call", "/org/accessoryagent/accessory/00000000000000b2", BusNames.properties, "Get", BusNames.accessory, "DisplayName"],
            ["call", "session", BusNames.session, "Invalidate"],
            ["call", "session", BusNames.session, "Activate"],
        ])
        #expect(output == """
            /org/accessoryagent/session/1
            new
            [/org/accessoryagent/accessory/00000000000000a1]
            active
            error org.freedesktop.DBus.Error.UnknownObject
            ok
            error org.accessoryagent.Error.invalidated

            """)
    }

    @Test func aCallerWithoutAManifestIsRefused() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp])
        let output = try h.runClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"],
            ["call", BusNames.root, BusNames.manager, "OpenPersistentSession"],
            ["explain"], ["call", BusNames.root, BusNames.manager, "OpenSession"],
        ], as: "nobody")
        let refused = "error org.accessoryagent.Error.activationFailed"
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == [refused, refused])
        // The message says who was refused and where the manifests it lacks are looked for.
        let explained = try #require(lines.dropFirst(2).first)
        #expect(explained.hasPrefix(refused + " "))
        let message = String(explained.dropFirst(refused.count + 1))
        #expect(message.hasPrefix("uid 65534 (nobody)"), "\(message)")
        #expect(message.hasSuffix("has no app manifest in \(h.directory)/apps.d"), "\(message)")
        #expect(h.service.openSessions.isEmpty)
    }

    @Test func anotherCallerCannotSeeOrUseASession() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp])
        let holder = h.directory + "/release"
        let holding = try h.startClient([["call", BusNames.root, BusNames.manager, "OpenSession"], ["wait", holder]])
        h.pump { !h.service.openSessions.isEmpty }
        let session = try #require(h.service.openSessions.first)
        #expect(session.app == "root-app")

        let output = try h.runClient([
            ["call", session.path, BusNames.session, "Activate"],
            ["call", session.path, BusNames.properties, "GetAll", BusNames.session],
        ], as: "nobody")
        #expect(output == "error org.freedesktop.DBus.Error.UnknownObject\nerror org.freedesktop.DBus.Error.UnknownObject\n")
        #expect(session.state == .new)

        // When the app's process goes, so does its session.
        #expect(FileManager.default.createFile(atPath: holder, contents: nil))
        _ = h.finish(holding)
        h.pump { h.service.openSessions.isEmpty }
        #expect(h.service.openSessions.isEmpty)
        #expect(session.state == .invalidated)
    }

    @Test func aPersistentSessionServesEveryConnectionOfItsAppAndQueuesItsEvents() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp], grants: Self.grants)
        // busctl: one connection per call, as in the README's walk-through.
        let path = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Manager1",
                                 "OpenPersistentSession"])
        #expect(path == "o \"/org/accessoryagent/session/1\"\n")
        let activated = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent/session/1",
                                      "org.accessoryagent.Session1", "Activate"])
        #expect(activated == "ao 1 \"/org/accessoryagent/accessory/00000000000000a1\"\n")
        let events = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent/session/1",
                                   "org.accessoryagent.Session1", "TakeEvents"])
        #expect(events == "a(sa{ss}) 1 \"activated\" 1 \"Accessories\" \"/org/accessoryagent/accessory/00000000000000a1\"\n")
        #expect(h.service.openSessions.count == 1)
        // Another app's connection still cannot see it.
        let other = try h.runClient([["call", "/org/accessoryagent/session/1", BusNames.session, "TakeEvents"]], as: "nobody")
        #expect(other == "error org.freedesktop.DBus.Error.UnknownObject\n")
    }

    @Test func introspectionDescribesTheInterfaces() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp])
        let output = try h.runClient([["call", BusNames.root, BusNames.introspectable, "Introspect"]])
        #expect(output.contains("<interface name=\"org.accessoryagent.Manager1\">"))
        #expect(output.contains("<interface name=\"org.accessoryagent.Admin1\">"))
        #expect(output.contains("<method name=\"OpenSession\">"))
    }

    /// What each object tells busctl is the XML generated from the declarations,
    /// and busctl, reading it as any D-Bus client does, finds every declared
    /// member with its signature.
    @Test func busctlIntrospectsEveryObjectAsDeclared() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp], grants: Self.grants)
        let session = try h.busctl(["call", BusNames.service, BusNames.root, BusNames.manager, Manager1.openPersistentSession.name])
        #expect(session == "o \"\(BusNames.path(ofSession: 1))\"\n")
        let objects = [
            (BusNames.root, IntrospectionXML.root, BusObjects.root),
            (BusNames.path(ofSession: 1), IntrospectionXML.session, BusObjects.session),
            (BusNames.path(of: AccessoryID(0xA1)), IntrospectionXML.accessory, BusObjects.accessory),
        ]
        for (path, xml, interfaces) in objects {
            // busctl ends what it prints with a newline of its own.
            #expect(try h.busctl(["introspect", "--xml-interface", BusNames.service, path]) == xml + "\n", "\(path)")
            for interface in interfaces where interface.name.hasPrefix(BusNames.service) {
                let table = try h.busctl(["introspect", BusNames.service, path, interface.name])
                var seen: [String] = []
                for line in table.split(separator: "\n") where line.hasPrefix(".") {
                    let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    seen.append(columns.prefix(3).joined(separator: " ")
                        + (columns[1] == "method" ? " " + columns[3] : ""))
                }
                func none(_ signature: String) -> String { signature.isEmpty ? "-" : signature }
                let declared = interface.methods.map { ".\($0.name) method \(none($0.inputSignature)) \(none($0.outputSignature))" }
                    + interface.properties.map { ".\($0.name) property \($0.type)" }
                    + interface.signals.map { ".\($0.name) signal \(none($0.signature))" }
                #expect(seen.sorted() == declared.sorted(), "\(path) \(interface.name)")
            }
        }
    }
}
