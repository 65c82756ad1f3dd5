import AccessoryCore
import AccessorySystem
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The D-Bus API against a real dbus-daemon, with apps played by Python
/// clients (python3-dbus) running as root and as the unprivileged `nobody`.
@Suite(.serialized) struct AccessoryServiceTests {
    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection
    let service: AccessoryService
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID())").path

    static let rootApp = AppManifest(app: "root-app", user: "root", supports: .bluetooth,
                                     bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])
    static let grants = [
        Grant(accessory: AccessoryID(0xA1), app: "root-app", displayName: "Porch", state: .authorized),
        Grant(accessory: AccessoryID(0xB2), app: "other-app", displayName: "Gate", state: .authorized),
    ]

    init() throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        bus = try PrivateBus()
        loop = try EventLoop()
        connection = try BusConnection(address: bus.address, loop: loop)
        try connection.requestName(BusNames.service)
        var catalog = AppManifestCatalog()
        catalog.manifests[Self.rootApp.app] = Self.rootApp
        service = try AccessoryService(connection: connection, logger: Logger(label: "test"),
                                       apps: { catalog }, grants: { Self.grants })
    }

    /// Runs a Python client (as `user`), pumping the service's loop meanwhile;
    /// returns what it printed.
    func client(_ body: String, as user: String? = nil) throws -> String {
        let script = directory + "/client-\(UUID()).py"
        try """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            def call(path, interface, method, *args):
                try:
                    return getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface), method)(*args)
                except dbus.DBusException as e:
                    return "error " + e.get_dbus_name()
            manager = "/org/accessoryagent"
            \(body)
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let (process, out, err) = try bus.start(["/usr/bin/python3", script, bus.address], as: user)
        for _ in 0..<400 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(25)) }
        process.waitUntilExit()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errors.isEmpty, "client failed: \(errors)")
        return output
    }

    @Test func anAppOpensAndActivatesASessionAndSeesOnlyItsAccessories() throws {
        let output = try client("""
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            print(s)
            print(call(s, "org.freedesktop.DBus.Properties", "Get", "org.accessoryagent.Session1", "State"))
            print(list(call(s, "org.accessoryagent.Session1", "Activate")))
            print(call(s, "org.freedesktop.DBus.Properties", "Get", "org.accessoryagent.Session1", "State"))
            call(s, "org.accessoryagent.Session1", "Invalidate")
            print(call(s, "org.accessoryagent.Session1", "Activate"))
            """)
        #expect(output == """
            /org/accessoryagent/session/1
            new
            [dbus.ObjectPath('/org/accessoryagent/accessory/00000000000000a1')]
            active
            error org.accessoryagent.Error.invalidated

            """)
    }

    @Test func aCallerWithoutAManifestIsRefused() throws {
        let output = try client("""
            print(call(manager, "org.accessoryagent.Manager1", "OpenSession"))
            """, as: "nobody")
        #expect(output == "error org.accessoryagent.Error.activationFailed\n")
        #expect(service.openSessions.isEmpty)
    }

    @Test func anotherCallerCannotSeeOrUseASession() throws {
        // The root app's session stays open while nobody tries it: the first
        // client keeps its connection until the second has run.
        let holder = directory + "/release"
        let script = """
            import os, time
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            print(s, flush=True)
            while not os.path.exists("\(holder)"): time.sleep(0.05)
            """
        let scriptPath = directory + "/holder.py"
        try """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            def call(path, interface, method, *args):
                return getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface), method)(*args)
            manager = "/org/accessoryagent"
            \(script)
            """.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let (holderProcess, _, _) = try bus.start(["/usr/bin/python3", scriptPath, bus.address])
        for _ in 0..<400 where service.openSessions.isEmpty { _ = loop.runOnce(timeout: .milliseconds(25)) }
        let session = try #require(service.openSessions.first)
        #expect(session.app == "root-app")

        let output = try client("""
            print(call("\(session.path)", "org.accessoryagent.Session1", "Activate"))
            print(call("\(session.path)", "org.freedesktop.DBus.Properties", "GetAll", "org.accessoryagent.Session1"))
            """, as: "nobody")
        #expect(output == "error org.freedesktop.DBus.Error.UnknownObject\nerror org.freedesktop.DBus.Error.UnknownObject\n")
        #expect(session.state == .new)

        // When the app's process goes, so does its session.
        #expect(FileManager.default.createFile(atPath: holder, contents: nil))
        for _ in 0..<400 where holderProcess.isRunning || !service.openSessions.isEmpty {
            _ = loop.runOnce(timeout: .milliseconds(25))
        }
        #expect(service.openSessions.isEmpty)
        #expect(session.state == .invalidated)
    }

    @Test func introspectionDescribesTheInterfaces() throws {
        let output = try client("""
            print(call(manager, "org.freedesktop.DBus.Introspectable", "Introspect"))
            """)
        #expect(output.contains("<interface name=\"org.accessoryagent.Manager1\">"))
        #expect(output.contains("<method name=\"OpenSession\">"))
    }
}
