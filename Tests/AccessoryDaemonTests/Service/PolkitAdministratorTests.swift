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
/// stand-in owns `org.freedesktop.PolicyKit1` on the private bus and answers
/// as a rule would (the system tier asks the real polkitd, `rpi` profile).
@Suite(.serialized) struct PolkitAdministratorTests {
    /// Answers yes for the uids listed, no for anyone else, and prints each
    /// question: the subject's kind, the action, the caller's uid, the flags.
    /// It leaves after `questions` questions (or 30 s).
    static func authority(allowing uids: [UInt32], questions: Int) -> String {
        """
        import dbus.service
        class Authority(dbus.service.Object):
            @dbus.service.method("org.freedesktop.PolicyKit1.Authority", in_signature="(sa{sv})sa{ss}us", out_signature="(bba{ss})")
            def CheckAuthorization(self, subject, action, details, flags, cancellation):
                kind, fields = subject
                uid = bus.get_unix_user(fields["name"])
                allowed = uid in [\(uids.map(String.init).joined(separator: ","))]
                print("asked", kind, action, uid, int(flags), flush=True)
                asked.append(uid)
                if len(asked) == \(questions): GLib.idle_add(loop.quit)
                return (dbus.Boolean(allowed), dbus.Boolean(not allowed), dbus.Dictionary({}, signature="ss"))
        asked = []
        name = dbus.service.BusName("org.freedesktop.PolicyKit1", bus)
        Authority(bus, "/org/freedesktop/PolicyKit1/Authority")
        GLib.timeout_add_seconds(30, GLib.MainLoop.quit, loop := GLib.MainLoop())
        loop.run()
        """
    }

    func startAuthority(_ h: ServiceHarness, allowing uids: [UInt32], questions: Int) throws -> (Process, Pipe, Pipe) {
        let authority = try h.start(Self.authority(allowing: uids, questions: questions))
        for _ in 0..<400 {
            if try h.busctl(["list", "--no-pager", "--no-legend"]).contains("org.freedesktop.PolicyKit1") { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return authority
    }

    @Test func aUserPolkitAllowsApprovesAndOthersAreRefused() throws {
        let group = TemporaryGroup()
        _ = try group.create()
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        let h = try ServiceHarness(manifests: [AdministratorGroupTests.app], administratorGroup: group.name)
        let (app, number) = try AdministratorGroupTests.pendingRequest(h)
        let authority = try startAuthority(h, allowing: [nobody], questions: 3)

        // daemon (uid 1): in no administrator group, and polkit says no.
        let refused = try h.run(AdministratorGroupTests.admin("ListRequests"), as: "daemon", primaryGroup: "daemon", groups: [])
        #expect(refused == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name) "
                + "and users polkit allows org.accessoryagent.administer\n")
        #expect(h.store.grants.isEmpty)

        // nobody: polkit says yes, so Admin1 answers and the decision is nobody's.
        let allowed = try h.run("""
            \(AdministratorGroupTests.admin("ListRequests"))
            \(AdministratorGroupTests.admin("Approve", "dbus.UInt32(\(number)), dbus.UInt32(1), ''"))
            """, as: "nobody", primaryGroup: "nogroup", groups: [])
        let grant = try #require(h.store.grants.values.first, "polkit's yes made no grant; the client printed: \(allowed)")
        #expect(allowed == "[(\(number),sensor-logger,picker,[Battery sensor],1,[],120)]\n\(BusNames.path(of: grant.accessory))\n")
        #expect(h.finish(app).contains("signal AccessoryAdded \(BusNames.path(of: grant.accessory))"))
        #expect(h.log.values(of: "decided_by") == ["administrator nobody (uid \(nobody))"])

        // Each question named the caller's connection, accessoryd's action, and no interaction.
        let asked = h.finish(authority).split(separator: "\n")
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
        let refused = try h.run(AdministratorGroupTests.admin("ListAccessories"), as: "nobody", primaryGroup: "nogroup", groups: [])
        #expect(refused == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n")
    }
}
