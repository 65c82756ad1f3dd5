import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Admin1 for root and the members of the administrator group, on a real
/// dbus-daemon with a real system group made for the test: a client is a
/// member through `setpriv --groups=` (or its primary gid), exactly as the
/// kernel and the bus see it.
@Suite(.serialized) struct AdministratorGroupTests {
    static let app = AppManifest(app: "sensor-logger", user: "daemon", supports: .bluetooth,
                                 bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Porch"])

    /// The app: a session showing a picker for the Porch battery sensor, until it is dismissed.
    static let picker = [
        ["session"], ["show", "Battery sensor", "ServiceUUID=180F", "NameSubstring=Porch"], ["until", "PickerDidDismiss"],
    ]

    /// One Admin1 call, through the test client: it prints the result (`ok`
    /// for none, structs in parentheses), or the error's name and message.
    static func admin(_ method: String, _ arguments: String...) -> [String] { ["admin", method] + arguments }

    /// A pending request from the app (as `daemon`) with one candidate heard.
    static func pendingRequest(_ h: ServiceHarness) throws -> (client: (Process, Pipe, Pipe), number: UInt32) {
        let client = try h.startClient(picker, as: "daemon")
        h.pump { !h.service.center.requests.isEmpty || !client.0.isRunning }
        guard let request = h.service.center.requests.values.first else {
            throw TemporaryGroup.Failure("no request; the app printed: \(h.finish(client))")
        }
        h.hear("C0:FF:EE:00:00:01", name: "Porch battery", service: 0x180F)
        #expect(h.service.center.requests[request.number]?.candidates.count == 1)
        return (client, request.number)
    }

    @Test func aMemberApprovesAndTheJournalNamesTheMember() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        #expect(h.service.administrators == AdministratorGroup(name: group.name, gid: gid))
        let (app, number) = try Self.pendingRequest(h)

        // nobody, a member through a supplementary group, may register a picker agent and approve.
        let member = try h.runClient([
            Self.admin("RegisterAgent", "/org/example/picker"),
            Self.admin("UnregisterAgent", "/org/example/picker"),
            Self.admin("ListRequests"),
            Self.admin("Approve", "\(number)", "1", ""),
        ], as: "nobody", primaryGroup: "nogroup", groups: [gid])
        let grant = try #require(h.store.grants.values.first, "the member's approval made no grant; it printed: \(member)")
        // The row's last field is the seconds until discovery gives up: read on the real
        // clock, so anything from 1 to the 120 s timeout is right.
        let lines = member.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5 && lines[0] == "ok" && lines[1] == "ok" && lines[4] == "", "it printed: \(member)")
        #expect(lines.count > 3 && lines[3] == BusNames.path(of: grant.accessory), "it printed: \(member)")
        let rowPrefix = "[(\(number),sensor-logger,picker,[Battery sensor],1,[],"
        let row = lines.count > 2 ? lines[2] : ""
        let secondsLeft = row.hasPrefix(rowPrefix) && row.hasSuffix(")]")
            ? Int(row.dropFirst(rowPrefix.count).dropLast(2)) : nil
        #expect(secondsLeft.map { (1...120).contains($0) } == true, "the request row: \(row)")
        #expect(h.finish(app).hasSuffix("signal AccessoryAdded \(BusNames.path(of: grant.accessory))\nsignal PickerDidDismiss  \n"))

        // The journal says who decided: nobody's uid, not root's.
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        #expect(h.log.values(of: "decided_by") == ["administrator nobody (uid \(nobody))"])
    }

    @Test func accessoryctlWorksForAMemberAndTellsOthersWhoMayUseIt() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let (app, number) = try Self.pendingRequest(h)

        let asMember = try h.accessoryctl(["requests"], setpriv: ["--reuid=nobody", "--regid=nogroup", "--groups=\(gid)"])
        #expect(asMember.status == 0, "\(asMember.err)")
        #expect(asMember.out.contains("request \(number): sensor-logger asks for \"Battery sensor\""))
        #expect(asMember.out.contains("Porch battery"))

        let asOutsider = try h.accessoryctl(["deny", "\(number)"], setpriv: ["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        #expect(asOutsider == (1, "", "accessoryctl: deny: permission denied: run as root or as a member of group accessory-admin\n"))
        #expect(h.service.center.requests[number] != nil)

        let denied = try h.accessoryctl(["deny", "\(number)"], setpriv: ["--reuid=nobody", "--regid=\(gid)", "--clear-groups"])
        #expect(denied.status == 0, "\(denied.err)")
        #expect(h.finish(app).contains("signal PickerDidDismiss org.accessoryagent.Error.userCancelled"))
    }

    /// The groups that count are those the bus daemon recorded when the caller
    /// connected, not what its /proc entry says at the time of the call: a
    /// process that enters the group afterwards (here with CAP_SETGID) is no
    /// member for that connection, so no pid reuse can lend a member's groups.
    @Test func groupsGainedAfterConnectingDoNotCount() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let client = try h.startClient([["setgroups", "\(gid)"], Self.admin("ListAccessories")],
                                       as: "nobody", primaryGroup: "nogroup", groups: [],
                                       setpriv: ["--inh-caps=+setgid", "--ambient-caps=+setgid"])
        #expect(h.finish(client) == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n")
    }

    @Test func theGroupAsPrimaryGroupIsMembershipToo() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let listed = try h.runClient([Self.admin("ListAccessories")], as: "nobody", primaryGroup: "\(gid)", groups: [])
        #expect(listed == "[]\n")
    }

    @Test func othersAreRefusedWithTheGroupNamed() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let (app, number) = try Self.pendingRequest(h)

        // In other groups (daemon's, nogroup) but not this one: refused, and told whose Admin1 is.
        let denied = "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n"
        let outsider = try h.runClient([Self.admin("Approve", "\(number)", "1", "")],
                                 as: "nobody", primaryGroup: "nogroup", groups: [1, gid + 1])
        #expect(outsider == denied)
        let agent = try h.runClient([Self.admin("RegisterAgent", "/org/example/picker")],
                              as: "nobody", primaryGroup: "nogroup", groups: [])
        #expect(agent == denied)
        #expect(h.service.center.agent == nil)
        #expect(h.store.grants.isEmpty)
        #expect(h.service.center.requests[number] != nil)

        // Root still decides.
        let denial = try h.accessoryctl(["deny", "\(number)"])
        #expect(denial.status == 0, "\(denial.err)")
        #expect(h.finish(app).contains("signal PickerDidDismiss org.accessoryagent.Error.userCancelled"))
        #expect(h.log.values(of: "decided_by") == ["administrator root (uid 0)"])
    }

    @Test func withoutTheGroupAdmin1IsRootsAlone() throws {
        // The daemon starts before the group exists: root only, and the journal says why.
        let group = TemporaryGroup()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        #expect(h.service.administrators.gid == nil)
        #expect(h.log.entries.contains {
            $0.level == .notice && $0.message == "Group \(group.name) does not exist: Admin1 is for root only"
                && $0.metadata[MessageID.metadataKey] == .string(MessageID.administratorsResolved.rawValue)
        })
        let listAsRoot = try h.accessoryctl(["accessories"])
        #expect(listAsRoot.status == 0, "\(listAsRoot.err)")

        // The group is created, and the daemon reloads: its members are admitted.
        let gid = try group.create()
        let refusedBefore = try h.runClient([Self.admin("ListAccessories")], as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(refusedBefore.hasPrefix("org.freedesktop.DBus.Error.AccessDenied"))
        h.service.resolveAdministratorGroup()
        let admitted = try h.runClient([Self.admin("ListAccessories")], as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(admitted == "[]\n")
        #expect(h.log.entries.contains {
            $0.message == "Admin1 is for root and members of group \(group.name) (gid \(gid))"
                && $0.metadata[MessageID.metadataKey] == .string(MessageID.administratorsResolved.rawValue)
        })

        // The group is removed again: after the next reload the same gid no longer counts.
        try group.delete()
        h.service.resolveAdministratorGroup()
        let refusedAfter = try h.runClient([Self.admin("ListAccessories")], as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(refusedAfter.hasPrefix("org.freedesktop.DBus.Error.AccessDenied"))
        #expect(try h.accessoryctl(["accessories"]).status == 0)
    }
}
