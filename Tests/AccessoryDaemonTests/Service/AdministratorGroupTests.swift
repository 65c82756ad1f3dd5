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

    static let picker = """
        s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
        call(s, "org.accessoryagent.Session1", "Activate")
        item = dbus.Struct(("Battery sensor", "", dbus.Dictionary({"ServiceUUID": "180F", "NameSubstring": "Porch"}, signature="ss"),
                            dbus.Array([], signature="s"), dbus.Array([], signature="s")))
        print("show", call(s, "org.accessoryagent.Session1", "ShowPicker", [item], dbus.Dictionary({}, signature="ss")), flush=True)
        run(["PickerDidDismiss"])
        """

    /// Calls one Admin1 method and prints its result (structs in parentheses),
    /// or the error's name and message.
    static func admin(_ method: String, _ arguments: String = "") -> String {
        """
        def plain(value):
            if isinstance(value, tuple): return "(" + ",".join(plain(v) for v in value) + ")"
            if isinstance(value, list): return "[" + ",".join(plain(v) for v in value) + "]"
            return text(value)
        try:
            admin = dbus.Interface(bus.get_object("org.accessoryagent", manager, introspect=False), "org.accessoryagent.Admin1")
            print(plain(admin.\(method)(\(arguments))))
        except dbus.DBusException as e:
            print(e.get_dbus_name(), e.get_dbus_message())

        """
    }

    /// A pending request from the app (as `daemon`) with one candidate heard.
    static func pendingRequest(_ h: ServiceHarness) throws -> (client: (Process, Pipe, Pipe), number: UInt32) {
        let client = try h.start(picker, as: "daemon")
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
        let member = try h.run("""
            \(Self.admin("RegisterAgent", "dbus.ObjectPath('/org/example/picker')"))
            \(Self.admin("UnregisterAgent", "dbus.ObjectPath('/org/example/picker')"))
            \(Self.admin("ListRequests"))
            \(Self.admin("Approve", "dbus.UInt32(\(number)), dbus.UInt32(1), ''"))
            """, as: "nobody", primaryGroup: "nogroup", groups: [gid])
        let grant = try #require(h.store.grants.values.first, "the member's approval made no grant; it printed: \(member)")
        #expect(member == """
            None
            None
            [(\(number),sensor-logger,picker,[Battery sensor],1,[],120)]
            \(BusNames.path(of: grant.accessory))

            """)
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
        let script = h.directory + "/gain-\(UUID()).py"
        try (ServiceHarness.prelude + """
            import os
            bus.get_unique_name()
            os.setgroups([\(gid)])
            \(Self.admin("ListAccessories"))
            """).write(toFile: script, atomically: true, encoding: .utf8)
        let client = try h.bus.start([
            "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
            "--inh-caps=+setgid", "--ambient-caps=+setgid", "/usr/bin/python3", script, h.bus.address,
        ])
        #expect(h.finish(client) == "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n")
    }

    @Test func theGroupAsPrimaryGroupIsMembershipToo() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let listed = try h.run(Self.admin("ListAccessories"), as: "nobody", primaryGroup: "\(gid)", groups: [])
        #expect(listed == "[]\n")
    }

    @Test func othersAreRefusedWithTheGroupNamed() throws {
        let group = TemporaryGroup()
        let gid = try group.create()
        let h = try ServiceHarness(manifests: [Self.app], administratorGroup: group.name)
        let (app, number) = try Self.pendingRequest(h)

        // In other groups (daemon's, nogroup) but not this one: refused, and told whose Admin1 is.
        let denied = "org.freedesktop.DBus.Error.AccessDenied Admin1 is for root and members of group \(group.name)\n"
        let outsider = try h.run(Self.admin("Approve", "dbus.UInt32(\(number)), dbus.UInt32(1), ''"),
                                 as: "nobody", primaryGroup: "nogroup", groups: [1, gid + 1])
        #expect(outsider == denied)
        let agent = try h.run(Self.admin("RegisterAgent", "dbus.ObjectPath('/org/example/picker')"),
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
        let refusedBefore = try h.run(Self.admin("ListAccessories"), as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(refusedBefore.hasPrefix("org.freedesktop.DBus.Error.AccessDenied"))
        h.service.resolveAdministratorGroup()
        let admitted = try h.run(Self.admin("ListAccessories"), as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(admitted == "[]\n")
        #expect(h.log.entries.contains {
            $0.message == "Admin1 is for root and members of group \(group.name) (gid \(gid))"
                && $0.metadata[MessageID.metadataKey] == .string(MessageID.administratorsResolved.rawValue)
        })

        // The group is removed again: after the next reload the same gid no longer counts.
        try group.delete()
        h.service.resolveAdministratorGroup()
        let refusedAfter = try h.run(Self.admin("ListAccessories"), as: "nobody", primaryGroup: "nogroup", groups: [gid])
        #expect(refusedAfter.hasPrefix("org.freedesktop.DBus.Error.AccessDenied"))
        #expect(try h.accessoryctl(["accessories"]).status == 0)
    }
}
