import AccessoryCore
import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// Issue 12, "apps that misbehave cannot hurt others", on a real
/// dbus-daemon: a hostile app (python3-dbus, as unix user `daemon`) floods
/// the service with what no well-behaved app sends, while a second app
/// (as `nobody`) asks for an accessory and gets it. The service runs in this
/// process (ServiceHarness), beside other suites running in parallel, so
/// memory and open descriptors are counted on a real accessoryd process
/// instead (`HostileFloodProcessTests`).
@Suite(.serialized) struct HostileClientTests {
    static let hostile = AppManifest(app: "hostile", user: "daemon", supports: [.bluetooth, .wifi],
                                     bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)], bluetoothNames: ["Porch"],
                                     ssidPrefixes: [Array("Lamp-".utf8)])
    static let good = PickerApprovalTests.appA

    /// Calls that print the error's name and message (or `ok`), one line each.
    /// Python on purpose: a hostile app marshals with another library (python3-dbus),
    /// so what it sends is not shaped by AccessoryWire's own encoders.
    static let attempt = """
        def attempt(label, path, interface, method, *args):
            try:
                getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface), method)(*args, timeout=600)
                print(label, "ok", flush=True)
            except dbus.DBusException as e:
                print(label, e.get_dbus_name(), e.get_dbus_message()[:160].replace("\\n", "\\\\n"), flush=True)
        S = "org.accessoryagent.Session1"
        def item(name="Sensor", descriptor=None, setup=()):
            return dbus.Struct((name, "", dbus.Dictionary(descriptor or {"ServiceUUID": "180F", "NameSubstring": "Porch"}, signature="ss"),
                                dbus.Array(list(setup), signature="s"), dbus.Array([], signature="s")))
        no_settings = dbus.Dictionary({}, signature="ss")

        """

    /// One round of everything the hostile app throws at the service.
    static var flood: String {
        """
        huge = dbus.Dictionary({"K%d" % i: "v" for i in range(100000)}, signature="ss")
        mega = "x" * (1 << 20)
        attempt("descriptor-100000", s, S, "ShowPicker", [item(descriptor=huge)], no_settings)
        attempt("settings-100000", s, S, "ShowPicker", [item()], huge)
        attempt("options-100000", s, S, "ShowPicker", [item(setup=["rename"] * 100000)], no_settings)
        attempt("name-1MB", s, S, "ShowPicker", [item(name=mega)], no_settings)
        attempt("value-1MB", s, S, "ShowPicker", [item(descriptor={"NameSubstring": mega})], no_settings)
        attempt("items-65", s, S, "ShowPicker", [item("Sensor %d" % i) for i in range(65)], no_settings)
        attempt("items-100000", s, S, "ShowPicker", [item("Sensor %d" % i) for i in range(100000)], no_settings)
        attempt("bytes-300KB", s, S, "ShowPicker", [item("y" * 1000, {"K%d" % k: "z" * 1000 for k in range(20)}) for i in range(15)], no_settings)
        migration = dbus.Array([("Old %d" % i, "C0:FF:EE:%02X:%02X:%02X" % (i >> 16, (i >> 8) & 255, i & 255), "", dbus.Dictionary({}, signature="ss")) for i in range(100000)], signature="(sssa{ss})")
        attempt("migration-100000", s, S, "Migrate", migration)
        attempt("migration-name-1MB", s, S, "Migrate", dbus.Array([(mega, "C0:FF:EE:00:00:99", "", dbus.Dictionary({}, signature="ss"))], signature="(sssa{ss})"))
        attempt("rename-1MB", s, S, "RenameAccessory", dbus.ObjectPath("/org/accessoryagent/accessory/0000000000000001"), mega, dbus.Array([], signature="s"))
        attempt("finish-100000", s, S, "FinishAuthorization", dbus.ObjectPath("/org/accessoryagent/accessory/0000000000000001"), huge)
        attempt("escape-in-name", s, S, "ShowPicker", [item("Lamp\\x1b[2J\\nJan 01 accessoryd: approved")], no_settings)
        attempt("escape-in-migration", s, S, "Migrate", dbus.Array([("Lamp\\x1b]0;pwned\\x07", "C0:FF:EE:00:00:98", "", dbus.Dictionary({}, signature="ss"))], signature="(sssa{ss})"))
        """
    }

    @Test func aFloodingAppIsRefusedByNamedLimitsAndAnotherAppsPickerCompletes() throws {
        let h = try ServiceHarness(manifests: [Self.hostile, Self.good])
        // The argument limits are what this floods; the rate bound has its own test (OutsideClientTests).
        h.service.limits.requestBurst = 1_000_000
        let markers = try Self.markers(h)
        let flooding = markers + "/flooding"
        let release = markers + "/release"

        do {
            // The hostile app: one round of each flood, reported, then more rounds until released.
            let hostile = try h.start(Self.attempt + """
                s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
                call(s, S, "Activate")
                \(Self.flood)
                sessions = [call(manager, "org.accessoryagent.Manager1", "OpenSession") for i in range(20)]
                print("sessions", sum(1 for x in sessions if not str(x).startswith("error")), [x for x in sessions if str(x).startswith("error")][:1], flush=True)
                open("\(flooding)", "w").close()
                import os
                rounds = 0
                while not os.path.exists("\(release)"):
                    huge = dbus.Dictionary({"K%d" % i: "v" for i in range(100000)}, signature="ss")
                    try: dbus.Interface(bus.get_object("org.accessoryagent", s, introspect=False), S).ShowPicker([item(descriptor=huge)], no_settings, timeout=600)
                    except dbus.DBusException as e: pass
                    rounds += 1
                    open("\(markers)/round-%d" % rounds, "w").close()
                print("flooded", "more" if rounds > 1 else "none", flush=True)
                """, as: "daemon")
            h.pump { FileManager.default.fileExists(atPath: flooding) || !hostile.0.isRunning }

            // The well-behaved app asks while the hostile one keeps flooding.
            let good = try h.startClient(PickerApprovalTests.pickerA, as: "nobody")
            h.pump { h.service.center.requests.values.contains { $0.app == Self.good.app } }
            let request = try #require(h.service.center.requests.values.first { $0.app == Self.good.app },
                                       "no request from the good app: \(h.finish(good))")
            // Two more whole floods served while the request is open: the loop took both apps' calls.
            let roundsSeen = try Self.rounds(in: markers)
            h.pump { ((try? Self.rounds(in: markers)) ?? 0) >= roundsSeen + 2 }
            #expect(try Self.rounds(in: markers) >= roundsSeen + 2)
            h.hear("C0:FF:EE:00:00:01", name: "Porch battery", service: 0x180F)
            let approved = try h.accessoryctl(["approve", "\(request.number)", "1"])
            #expect(approved.status == 0, "\(approved.err)")
            let goodSaid = h.finish(good)
            #expect(goodSaid.contains("signal AccessoryAdded "))
            #expect(goodSaid.hasSuffix("signal PickerDidDismiss  \n"), "\(goodSaid)")
            #expect(h.store.grants.values.map(\.app) == [Self.good.app])

            #expect(FileManager.default.createFile(atPath: release, contents: nil))
            let said = h.finish(hostile).split(separator: "\n").map(String.init)
            let limit = "org.accessoryagent.Error.invalidRequest"
            #expect(said == [
                "descriptor-100000 \(limit) a descriptor of more than 32 entries: over the limit DictionaryEntries=32",
                "settings-100000 \(limit) picker settings of more than 32 entries: over the limit DictionaryEntries=32",
                "options-100000 \(limit) setup options of more than 32: over the limit DictionaryEntries=32",
                "name-1MB \(limit) a display item's name of 1048576 bytes: over the limit StringLength=1024",
                "value-1MB \(limit) the value of NameSubstring in a descriptor of 1048576 bytes: over the limit StringLength=1024",
                "items-65 \(limit) display items of more than 64: over the limit DisplayItems=64",
                "items-100000 \(limit) display items of more than 64: over the limit DisplayItems=64",
                "bytes-300KB \(limit) arguments of more than 262144 bytes: over the limit ArgumentBytes=262144",
                "migration-100000 \(limit) migration items of more than 256: over the limit MigrationItems=256",
                "migration-name-1MB \(limit) a migration item's name of 1048576 bytes: over the limit StringLength=1024",
                "rename-1MB \(limit) a name of 1048576 bytes: over the limit StringLength=1024",
                "finish-100000 \(limit) authorization settings of more than 32 entries: over the limit DictionaryEntries=32",
                "escape-in-name \(limit) a display item's name holds control characters: \"Lamp\\x1B[2J\\x0AJan 01 accessoryd: approved\"; a name may hold none",
                "escape-in-migration \(limit) a migration item's name holds control characters: \"Lamp\\x1B]0;pwned\\x07\"; a name may hold none",
                // One session open already: 15 more, then the limit.
                "sessions 15 ['error \(limit)']",
                "flooded more",
            ])
            // Nothing of the flood was kept, and no log line holds a raw control character.
            #expect(!h.service.center.requests.values.contains { $0.app == Self.hostile.app })
            #expect(h.pipeline.index.descriptorIDs(of: Self.hostile.app).isEmpty)
            // Five refusals, one log line: refusals do not flood the journal either.
            #expect(h.log.entries.filter { $0.message.hasPrefix("Refused a session") }.count == 1)
            let megabyte = String(repeating: "x", count: 2048)
            #expect(!h.log.entries.contains { $0.message.contains(megabyte) || $0.message.contains("\u{1B}") })
        }

        // Every session went with its connection.
        h.pump { h.service.openSessions.isEmpty }
        #expect(h.service.openSessions.isEmpty)
    }

    /// Another app's accessory looks exactly like one that does not exist:
    /// a migration naming it is answered as one naming nothing known.
    @Test func migrateDoesNotTellWhetherAnotherAppsAccessoryExists() throws {
        let theirs = Grant(accessory: AccessoryID(0xA1), app: Self.good.app, displayName: "Porch", state: .authorized,
                           bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:50")!, addressType: .public))
        let h = try ServiceHarness(manifests: [Self.hostile, Self.good], grants: [theirs])
        let said = try h.run(Self.attempt + """
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, S, "Activate")
            for address in ["C0:FF:EE:00:00:50", "C0:FF:EE:00:00:51"]:
                attempt("migrate", s, S, "Migrate", dbus.Array([("Old", address, "", dbus.Dictionary({}, signature="ss"))], signature="(sssa{ss})"))
                attempt("dismiss", s, S, "DismissPicker")
            """, as: "daemon")
        let lines = said.split(separator: "\n").map(String.init)
        #expect(lines == ["migrate ok", "dismiss ok", "migrate ok", "dismiss ok"], "\(said)")
        #expect(!said.contains("another app"))
    }

    /// An app that leaves the bus at any step leaves nothing behind: no
    /// session, no request, no descriptor in the matching index, no demand
    /// for Wi-Fi scans (descriptors: `HostileFloodProcessTests`).
    @Test(arguments: ["open", "activate", "picker", "wifi-picker", "migration", "invalidated"])
    func leavingAtAnyStepLeavesNothingBehind(step: String) throws {
        let h = try ServiceHarness(manifests: [Self.hostile])
        var wifiWanted = false
        h.service.center.demandChanged = { wifiWanted = $0.wifi }
        let reached = try Self.markers(h) + "/reached"
        do {
            let client = try h.start(Self.attempt + """
                import os
                step = "\(step)"
                s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
                if step != "open": call(s, S, "Activate")
                if step == "picker": attempt("show", s, S, "ShowPicker", [item()], no_settings)
                if step == "wifi-picker": attempt("show", s, S, "ShowPicker", [item(descriptor={"SSIDPrefix": "Lamp-"})], no_settings)
                if step == "migration": attempt("migrate", s, S, "Migrate", dbus.Array([("Old", "C0:FF:EE:00:00:60", "", dbus.Dictionary({}, signature="ss"))], signature="(sssa{ss})"))
                if step == "invalidated": attempt("invalidate", s, S, "Invalidate")
                open("\(reached)", "w").close()
                import time
                time.sleep(600)
                """, as: "daemon")
            h.pump { FileManager.default.fileExists(atPath: reached) || !client.0.isRunning }
            #expect(h.service.openSessions.count == 1)
            if step.hasSuffix("picker") || step == "migration" { #expect(h.service.center.requests.count == 1) }
            if step == "wifi-picker" { #expect(wifiWanted) }
            // Gone without a word, as a crash goes.
            kill(client.0.processIdentifier, SIGKILL)
            client.0.waitUntilExit()
            h.pump { h.service.openSessions.isEmpty }
        }
        #expect(h.service.openSessions.isEmpty)
        #expect(h.service.center.requests.isEmpty)
        #expect(h.pipeline.index.descriptorIDs(of: Self.hostile.app).isEmpty)
        #expect(!wifiWanted)
        #expect(!h.service.center.wantsWiFiScans)
    }

    /// A directory the clients (other unix users) may leave marks in.
    static func markers(_ h: ServiceHarness) throws -> String {
        let path = h.directory + "/markers"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o1777)
        return path
    }

    /// How many whole floods the hostile app has had answered.
    static func rounds(in directory: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("round-") }.count
    }
}
