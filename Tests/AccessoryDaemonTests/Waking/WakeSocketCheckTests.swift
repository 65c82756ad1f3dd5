import AccessoryCore
import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// `WakeSocketCheck` reads what it needs with the calls and types of
/// systemd's D-Bus API (org.freedesktop.systemd1(5): `LoadUnit`, and
/// `Unit.LoadState`/`Triggers`, `Socket.Accept`/`Listen`, `Service.User`),
/// here answered by a stand-in on a private bus. systemd itself answers them
/// in the system tier; this pins the decoding (a(ss) in a variant, the
/// chain of calls, a unit that does not exist) and that nothing waits.
@Suite(.serialized) struct WakeSocketCheckTests {
    static let standIn = """
        import dbus, dbus.service, sys, os
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        UNITS = {
            "acme-wake.socket": {
                "org.freedesktop.systemd1.Unit": {"LoadState": dbus.String("loaded"),
                                                  "Triggers": dbus.Array(["acme-wake.service"], signature="s")},
                "org.freedesktop.systemd1.Socket": {"Accept": dbus.Boolean(False),
                                                    "Listen": dbus.Array([("Stream", "/run/acme/wake.sock")], signature="(ss)")},
            },
            "acme-wake.service": {
                "org.freedesktop.systemd1.Unit": {"LoadState": dbus.String("loaded")},
                "org.freedesktop.systemd1.Service": {"User": dbus.String("acmelog")},
            },
        }
        def path_of(name):
            return "/org/freedesktop/systemd1/unit/" + "".join(c if c.isalnum() else "_%02x" % ord(c) for c in name)
        class Unit(dbus.service.Object):
            def __init__(self, name, properties):
                dbus.service.Object.__init__(self, bus, path_of(name))
                self.properties = properties
            @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                return self.properties[interface][name]
        class Manager(dbus.service.Object):
            @dbus.service.method("org.freedesktop.systemd1.Manager", in_signature="s", out_signature="o")
            def LoadUnit(self, name):
                if name not in UNITS:
                    # systemd loads any name: one without a file is "not-found".
                    UNITS[name] = {"org.freedesktop.systemd1.Unit": {"LoadState": dbus.String("not-found")}}
                    Unit(name, UNITS[name])
                return dbus.ObjectPath(path_of(name))
        objects = [Unit(name, properties) for name, properties in UNITS.items()]
        manager = Manager(bus, "/org/freedesktop/systemd1")
        name = dbus.service.BusName("org.freedesktop.systemd1", bus)
        open(sys.argv[2], "w").close()
        GLib.MainLoop().run()
        """

    func facts(of unit: String) throws -> Result<WakeSocketFacts, WakeSocketRefusal>? {
        let bus = try PrivateBus()
        let scratch = try ScratchDirectory("wake-check")
        let script = scratch.path("systemd.py")
        try Self.standIn.write(toFile: script, atomically: true, encoding: .utf8)
        let ready = scratch.path("ready")
        let (process, _, _) = try bus.start(["/usr/bin/python3", script, bus.address, ready])
        // SIGKILL: the child inherits the test process's blocked signals, SIGTERM among them.
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let loop = try EventLoop(pingsWatchdog: false)
        let connection = try BusConnection(address: bus.address, loop: loop)
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: ready) { _ = loop.runOnce(timeout: .milliseconds(25)) }
        var answer: Result<WakeSocketFacts, WakeSocketRefusal>?
        WakeSocketCheck(connection: connection).facts(of: unit) { answer = $0 }
        #expect(answer == nil, "the answer comes from the loop, never from inside the call")
        for _ in 0..<400 where answer == nil { _ = loop.runOnce(timeout: .milliseconds(25)) }
        return answer
    }

    @Test func readsTheSocketUnitAndItsServiceFromSystemd() throws {
        let answer = try facts(of: "acme-wake.socket")
        let facts = try #require(try answer?.get())
        #expect(facts == WakeSocketFacts(loadState: "loaded", listen: [("Stream", "/run/acme/wake.sock")], accept: false,
                                         triggers: ["acme-wake.service"], serviceUser: "acmelog"))
        let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "acme-wake.socket", supports: [.bluetooth])
        #expect(facts.verdict(for: manifest) == .success("/run/acme/wake.sock"))
    }

    @Test func aUnitThatDoesNotExistIsNotLoaded() throws {
        let answer = try facts(of: "gone.socket")
        let facts = try #require(try answer?.get())
        #expect(facts.loadState == "not-found")
        let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "gone.socket", supports: [.bluetooth])
        #expect(facts.verdict(for: manifest) == .failure(WakeSocketRefusal("gone.socket", "is not-found, not loaded (not installed?)")))
    }
}
