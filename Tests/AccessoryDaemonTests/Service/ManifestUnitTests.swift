import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// A manifest's `Unit=` against callers whose /proc accessoryd cannot read
/// (the shipped unit's `ProtectProc=invisible`; here /proc is made to say
/// nothing): accessoryd asks systemd which unit the caller's process runs in.
/// The test client runs as `nobody` on a private dbus-daemon; systemd is not
/// PID 1 here and serves no private bus, so `SystemdStandIn` owns
/// `org.freedesktop.systemd1` and answers for it (the system tier's
/// `app-unit` asks the real one).
@Suite(.serialized) struct ManifestUnitTests {
    static let app = AppManifest(app: "unit-logger", user: "nobody", unit: "unit-logger.service", supports: .bluetooth)
    static let refused = "error org.accessoryagent.Error.activationFailed"
    /// OpenSession, its error printed with the message.
    static let steps = [["explain"], ["call", BusNames.root, BusNames.manager, "OpenSession"]]

    @Test func inItsUnitTheAppGetsASessionAndFromAnotherUnitOfItsUserNot() throws {
        let h = try ServiceHarness(manifests: [Self.app], readUnitFromProc: { _ in nil })
        let systemd = try SystemdStandIn(address: h.bus.address, loop: h.loop, .unit("unit-logger.service"))
        let output = try h.runClient([["call", BusNames.root, BusNames.manager, "OpenSession"]], as: "nobody")
        #expect(output.hasPrefix("/org/accessoryagent/session/"), "\(output)")
        #expect(systemd.askedPIDs.count == 1)

        systemd.behaviour = .unit("other.service")
        let other = try h.runClient(Self.steps, as: "nobody")
        #expect(other.hasPrefix(Self.refused + " uid 65534 (nobody) in other.service has no app manifest in "), "\(other)")
        // One question per connection, and the first connection's answer is its own.
        #expect(systemd.askedPIDs.count == 2)
    }

    @Test func withoutSystemdUnitCannotMatchAndTheRefusalSaysSo() throws {
        let h = try ServiceHarness(manifests: [Self.app], readUnitFromProc: { _ in nil })
        let output = try h.runClient(Self.steps, as: "nobody")
        let message = output.trimmingCharacters(in: .newlines)
        #expect(message.hasPrefix(Self.refused + " uid 65534 (nobody) has no app manifest"), "\(message)")
        #expect(message.hasSuffix("has no app manifest in \(h.directory)/apps.d; its systemd unit is unknown "
                                  + "(systemd (org.freedesktop.systemd1) is not on the bus), so no manifest's Unit= can match it: "
                                  + "unit-logger (Unit=unit-logger.service)"), "\(message)")
        #expect(h.service.openSessions.isEmpty)
    }

    @Test func systemdNotAnsweringRefusesTheCallerAndServesOthers() throws {
        let h = try ServiceHarness(manifests: [Self.app, PickerApprovalTests.appB], readUnitFromProc: { _ in nil })
        let systemd = try SystemdStandIn(address: h.bus.address, loop: h.loop, .silent)
        let markers = try HostileClientTests.markers(h)
        let stuck = try h.startClient(Self.steps + [["wait", markers + "/done"]], as: "nobody")
        h.pump { systemd.holding == 1 }
        #expect(systemd.holding == 1)
        // Meanwhile the loop serves everyone else.
        systemd.behaviour = .unit("lock-controller.service")
        let served = try h.runClient([["call", BusNames.root, BusNames.manager, "OpenSession"]], as: "daemon")
        #expect(served.hasPrefix("/org/accessoryagent/session/"), "\(served)")
        // The deadline passes with no answer for nobody's caller: refused, named.
        h.scheduler.advance(by: h.service.callers.units.deadline)
        FileManager.default.createFile(atPath: markers + "/done", contents: nil)
        let output = h.finish(stuck)
        #expect(output.hasPrefix("error org.freedesktop.DBus.Error.AccessDenied cannot tell who the caller is: "
                                 + "systemd (org.freedesktop.systemd1) was asked which unit process "), "\(output)")
        #expect(output.hasSuffix("did not answer within 10.0 seconds; call again\n"), "\(output)")
    }
}
