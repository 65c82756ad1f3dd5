import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// `DismissPicker()`: an app that gives up on its picker withdraws the
/// request, which then ends as a denial does, for the app, the
/// administrator, a picker agent and the journal alike.
@Suite(.serialized) struct PickerWithdrawalTests {
    static let app = SetupErrorPathTests.app
    static let other = PickerFeatureTests.other
    static let rootApp = AppManifest(app: "gateway-shell", user: "root", supports: .bluetooth,
                                     bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Acme"])
    static let withdrawn = "signal PickerDidDismiss org.accessoryagent.Error.userCancelled withdrawn by the app\n"

    static let dismiss = ["call", "session", BusNames.session, "DismissPicker"]

    /// Shows a picker, waits for `go`, withdraws it and waits for the dismissal.
    static func showThenWithdraw(_ descriptor: [String], after go: String) -> [[String]] {
        [["session"], SetupErrorPathTests.show(descriptor), ["wait", go], ["explain"], dismiss, ["until", "PickerDidDismiss"]]
    }

    @Test func aWithdrawnPickerIsGoneForTheAdministratorAndALateApprovalGrantsNothing() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let go = h.directory + "/go"
        let app = try h.startClient(Self.showThenWithdraw(SetupErrorPathTests.acme, after: go), as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let number = try #require(h.service.center.requests.keys.first)
        h.hear("C0:FF:EE:00:00:60", name: "Acme 60", service: 0x180F)
        #expect(try h.accessoryctl(["requests"]).out.contains("Acme 60"))

        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        let output = h.finish(app)

        #expect(output.hasPrefix("ok\nok\n"), "shown, then withdrawn")
        #expect(output.hasSuffix(Self.withdrawn))
        let listed = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Admin1",
                                   "ListRequests"])
        #expect(listed == "a(ussasuasi) 0\n")
        // The administrator's approval comes too late: the request is unknown, nothing is granted.
        let approved = try h.accessoryctl(["approve", "\(number)", "1"])
        #expect(approved.status == 1)
        #expect(approved.err.contains("no pending request \(number)"))
        #expect(h.store.grants.isEmpty)
        // Journaled as a decision the app made.
        #expect(h.log.entries.contains {
            $0.metadata[MessageID.metadataKey] == .string(MessageID.requestDenied.rawValue)
                && $0.metadata["decided_by"] == "app acme" && $0.metadata["request"] == "\(number)"
        })
    }

    @Test func withdrawingStopsTheDiscoveryTheRequestWanted() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let go = h.directory + "/go"
        let app = try h.startClient(Self.showThenWithdraw(["SSIDPrefix=ACME-"], after: go), as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        #expect(h.service.center.wantsWiFiScans)

        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        #expect(h.finish(app).hasSuffix(Self.withdrawn))

        #expect(!h.service.center.wantsWiFiScans)
        // Heard now, the hotspot is nobody's candidate.
        h.hear(ssid: "ACME-Cam", bssid: "02:00:00:00:06:00")
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func aRegisteredPickerAgentIsToldTheRequestEnded() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let agent = try h.startClient([
            ["serve", "/org/example/agent"], ["admin", "RegisterAgent", "/org/example/agent"], ["until", "RequestEnded"],
        ])
        h.pump { h.service.center.agent != nil }
        let app = try h.runClient([["session"], SetupErrorPathTests.show(SetupErrorPathTests.acme), Self.dismiss,
                                   ["until", "PickerDidDismiss"]], as: "nobody")
        #expect(app.hasSuffix(Self.withdrawn))
        // Told as when the app's session ends: the app no longer asks.
        #expect(h.finish(agent) == "ok\nRequestAdded 1 acme [Acme sensor] []\nRequestEnded 1 cancelled\n")
    }

    @Test func aMigrationRequestIsWithdrawnAlike() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.runClient([
            ["session"], ["migrate", "Old sensor", "C0:FF:EE:00:00:61", ""], Self.dismiss, ["until", "PickerDidDismiss"],
        ], as: "nobody")
        #expect(output.hasPrefix("ok\nok\n"))
        #expect(output.hasSuffix(Self.withdrawn))
        #expect(!output.contains("MigrationComplete"))
        #expect(h.service.center.requests.isEmpty)
        #expect(h.store.grants.isEmpty)
    }

    @Test func withNoPickerOpenItIsAnInvalidRequestAndOnADeadSessionInvalidated() throws {
        let h = try ServiceHarness(manifests: [Self.app])
        let output = try h.runClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["explain"],
            Self.dismiss, ["call", "session", BusNames.session, "Activate"],
            Self.dismiss, ["call", "session", BusNames.session, "Invalidate"],
            Self.dismiss,
        ], as: "nobody")
        #expect(output == """
            /org/accessoryagent/session/1
            error org.accessoryagent.Error.invalidRequest no picker is open
            []
            error org.accessoryagent.Error.invalidRequest no picker is open
            ok
            error org.accessoryagent.Error.invalidated the session was invalidated

            """)
    }

    @Test func anotherAppsConnectionCannotWithdrawItButItsOwnCan() throws {
        let h = try ServiceHarness(manifests: [Self.app, Self.other])
        let go = h.directory + "/go"
        let app = try h.startClient(Self.showThenWithdraw(SetupErrorPathTests.acme, after: go), as: "nobody")
        h.pump { !h.service.center.requests.isEmpty }
        let path = try #require(h.service.openSessions.first?.path)

        let intruder = try h.runClient([["call", path, BusNames.session, "DismissPicker"]], as: "daemon")

        #expect(intruder == "error org.freedesktop.DBus.Error.UnknownObject\n")
        #expect(h.service.center.requests.count == 1)
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        #expect(h.finish(app).hasSuffix(Self.withdrawn))
        #expect(h.service.center.requests.isEmpty)
    }

    @Test func anyConnectionOfAPersistentSessionsAppMayWithdrawIt() throws {
        let h = try ServiceHarness(manifests: [Self.rootApp])
        // busctl: a new connection for every call, each one the app's.
        func session(_ arguments: String...) throws -> String {
            try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent/session/1", "org.accessoryagent.Session1"]
                         + arguments)
        }
        _ = try h.busctl(["call", "org.accessoryagent", "/org/accessoryagent", "org.accessoryagent.Manager1",
                          "OpenPersistentSession"])
        _ = try session("Activate")
        _ = try session("ShowPicker", "a(ssa{ss}asas)a{ss}", "1", "Acme sensor", "", "2", "ServiceUUID", "180F",
                        "NameSubstring", "Acme", "0", "0", "0")
        #expect(h.service.center.requests.count == 1)

        // busctl prints nothing for a reply without values.
        #expect(try session("DismissPicker") == "")

        #expect(h.service.center.requests.isEmpty)
        let events = try session("TakeEvents")
        #expect(events.hasSuffix("\"pickerDidDismiss\" 2 \"Error\" \"org.accessoryagent.Error.userCancelled\" \"Message\" \"withdrawn by the app\"\n"),
                "\(events)")
    }
}
