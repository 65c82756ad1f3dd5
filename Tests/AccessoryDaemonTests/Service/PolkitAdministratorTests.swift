import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Admin1 for a user polkit allows `org.accessoryagent.administer`, though in
/// no administrator group: accessoryd asks polkit's Authority without waiting
/// and without user interaction. polkitd serves only the system bus, so here a
/// stand-in in the test's process owns `org.freedesktop.PolicyKit1` on the private bus and answers
/// as a rule would (the system tier asks the real polkitd, `rpi` profile).
@Suite(.serialized) struct PolkitAdministratorTests {
    /// polkit's Authority, served on the harness's loop by a connection of
    /// its own: answers yes for the uids listed, no for anyone else, and
    /// writes each question down (the subject's kind, the action, the
    /// caller's uid, the flags).
    final class Authority {
        let connection: BusConnection
        private(set) var asked: [String] = []

        init(_ h: ServiceHarness, allowing uids: [UInt32]) throws {
            connection = try BusConnection(address: h.bus.address, loop: h.loop)
            try connection.requestName("org.freedesktop.PolicyKit1")
            try connection.serve(path: "/org/freedesktop/PolicyKit1/Authority") { [unowned self] call, connection in
                guard call.interface == "org.freedesktop.PolicyKit1.Authority", call.member == "CheckAuthorization" else { return nil }
                do throws(BusError) {
                    var kind = "", name = ""
                    try call.readContainer("r", "sa{sv}") { () throws(BusError) in
                        kind = try call.readString()
                        try call.readArray("{sv}") { () throws(BusError) in
                            try call.readContainer("e", "sv") { () throws(BusError) in
                                if try call.readString() == "name" {
                                    try call.readContainer("v", "s") { () throws(BusError) in name = try call.readString() }
                                } else {
                                    try call.skip("v")
                                }
                            }
                        }
                    }
                    let action = try call.readString()
                    try call.skip("a{ss}")
                    let flags = try call.readUInt32()
                    // The caller's uid, as polkitd asks the bus for it.
                    let uid = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                  interface: "org.freedesktop.DBus", member: "GetConnectionUnixUser") {
                        $0.append(name)
                    }.readUInt32()
                    self.asked.append("asked \(kind) \(action) \(uid) \(flags)")
                    let allowed = uids.contains(uid)
                    return connection.reply(to: call).map {
                        .reply($0.container("r", "bba{ss}") { $0.append(allowed).append(!allowed).append(pairs: []) })
                    }
                } catch {
                    return .error(error)
                }
            }
        }
    }

    @Test func aUserPolkitAllowsApprovesAndOthersAreRefused() throws {
        let group = TemporaryGroup()
        _ = try group.create()
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        let h = try ServiceHarness(manifests: [AdministratorGroupTests.app], administratorGroup: group.name)
        let (app, number) = try AdministratorGroupTests.pendingRequest(h)
        let authority = try Authority(h, allowing: [nobody])

        // daemon (uid 1): in no administrator group, and polkit says no.
        let refused = try h.runClient([AdministratorGroupTests.admin("ListRequests")], as: "daemon", primaryGroup: "daemon", groups: [])
        #expect(refused == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name) "
                + "and users polkit allows org.accessoryagent.administer\n")
        #expect(h.store.grants.isEmpty)

        // nobody: polkit says yes, so Admin1 answers and the decision is nobody's.
        let allowed = try h.runClient([
            AdministratorGroupTests.admin("ListRequests"), AdministratorGroupTests.admin("Approve", "\(number)", "1", ""),
        ], as: "nobody", primaryGroup: "nogroup", groups: [])
        let grant = try #require(h.store.grants.values.first, "polkit's yes made no grant; the client printed: \(allowed)")
        #expect(allowed == "[(\(number),sensor-logger,picker,[Battery sensor],1,[],120)]\n\(BusNames.path(of: grant.accessory))\n")
        #expect(h.finish(app).contains("signal AccessoryAdded \(BusNames.path(of: grant.accessory))"))
        #expect(h.log.values(of: "decided_by") == ["administrator nobody (uid \(nobody))"])

        // Each question named the caller's connection, accessoryd's action, and no interaction.
        let asked = authority.asked
        #expect(asked.first == "asked system-bus-name org.accessoryagent.administer 1 0")
        #expect(asked.dropFirst().allSatisfy { $0 == "asked system-bus-name org.accessoryagent.administer \(nobody) 0" })
        #expect(asked.count == 3)
    }

    /// Without polkit on the bus a caller outside the group is refused as
    /// before, with the group named.
    @Test func withoutPolkitOnlyTheGroupCounts() throws {
        let group = TemporaryGroup()
        _ = try group.create()
        let h = try ServiceHarness(manifests: [AdministratorGroupTests.app], administratorGroup: group.name)
        let refused = try h.runClient([AdministratorGroupTests.admin("ListAccessories")], as: "nobody", primaryGroup: "nogroup", groups: [])
        #expect(refused == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n")
    }
}
