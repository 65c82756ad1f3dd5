import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import AccessoryWire
import Foundation
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// accessoryd's D-Bus service on a real private dbus-daemon, with its real
/// authorization center and grant store, and apps played by the test client
/// (Tests/TestClient, on AccessoryWire) running as different unix users.
/// Radios are replaced by feeding the discovery pipeline directly: the lab
/// covers the radios.
final class ServiceHarness {
    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection
    let service: AccessoryService
    let pipeline: DiscoveryPipeline
    /// The service's, the center's and the pipeline's time: moved by the test, so a
    /// deadline (a discovery timeout, a presence expiry) fires when the test says.
    let scheduler = ManualScheduler()
    var clock: ManualClock { scheduler.clock }
    /// The grant store, manifests and client scripts; removed when the harness goes.
    let scratch: ScratchDirectory
    var directory: String { scratch.path }
    var catalog = AppManifestCatalog()
    var store: GrantStore
    /// What the service logged.
    let log = RecordedLog()

    init(manifests: [AppManifest], grants: [Grant] = [],
         administratorGroup: String = AdministratorGroup.defaultName,
         lookUpUserName: @escaping UserNameLookup.LookUp = UnixUser.name(of:),
         readUnitFromProc: @escaping CallerUnitLookup.ReadProc = CallerCredentials.unit(ofProcess:)) throws {
        scratch = try ScratchDirectory("service")
        bus = try PrivateBus()
        loop = try EventLoop()
        connection = try BusConnection(address: bus.address, loop: loop)
        try connection.requestName(BusNames.service)
        for manifest in manifests { catalog.manifests[manifest.app] = manifest }
        store = GrantStore(directory: scratch.path)
        for grant in grants { try store.save(grant) }
        pipeline = DiscoveryPipeline(clock: scheduler)
        let catalog = self.catalog
        service = try AccessoryService(connection: connection, logger: log.logger,
                                       apps: { catalog }, manifestDirectories: scratch.path("apps.d"),
                                       administratorGroup: administratorGroup,
                                       center: AuthorizationCenter(store: store, pipeline: pipeline, logger: log.logger, scheduler: scheduler),
                                       loop: loop, scheduler: scheduler, lookUpUserName: lookUpUserName,
                                       readUnitFromProc: readUnitFromProc)
    }

    /// The Python prelude of the clients that are third-party on purpose (a
    /// hostile or outside app, marshalling with python3-dbus, not AccessoryWire):
    /// `call`, `on_signals`, `run`.
    static let prelude = """
        import dbus, sys
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        manager = "/org/accessoryagent"
        def call(path, interface, method, *args, **kw):
            try:
                return getattr(dbus.Interface(bus.get_object("org.accessoryagent", path, introspect=False), interface), method)(*args, **kw)
            except dbus.DBusException as e:
                if "-v" in sys.argv: print(e.get_dbus_message(), file=sys.stderr)
                return "error " + e.get_dbus_name()
        def text(value):
            if isinstance(value, dbus.Array) and value.signature == "y": return bytes(value).hex()
            if isinstance(value, dbus.Boolean): return "true" if value else "false"
            if isinstance(value, dict): return "{" + ",".join(f"{k}={text(v)}" for k, v in value.items()) + "}"
            if isinstance(value, (dbus.Array, list)): return "[" + ",".join(text(v) for v in value) + "]"
            return str(value)
        loop = GLib.MainLoop()
        stop_on = set()
        def on_signal(*args, member=None, path=None, sender=None):
            if path == "/org/freedesktop/DBus": return
            print("signal", member, *[text(a) for a in args], flush=True)
            if member in stop_on: loop.quit()
        bus.add_signal_receiver(on_signal, member_keyword="member", path_keyword="path", sender_keyword="sender")
        def run(until, seconds=30):
            stop_on.clear(); stop_on.update(until)
            GLib.timeout_add_seconds(seconds, loop.quit)
            loop.run()
        def wait_for(path):
            import os, time
            while not os.path.exists(path): time.sleep(0.05)

        """

    /// Starts a Python client (a third-party one, on purpose) as `user` (nil: root).
    func start(_ body: String, as user: String? = nil) throws -> (Process, Pipe, Pipe) {
        let script = directory + "/client-\(UUID()).py"
        try (Self.prelude + body).write(toFile: script, atomically: true, encoding: .utf8)
        return try bus.start(["/usr/bin/python3", script, bus.address], as: user)
    }

    /// Runs the loop until `done` or about 20 s.
    func pump(until done: () -> Bool) {
        for _ in 0..<800 where !done() { _ = loop.runOnce(timeout: .milliseconds(25)) }
    }

    /// The test client's command line (Tests/TestClient) for `steps`, one after another on one connection.
    func clientCommand(_ steps: [[String]]) -> [String] {
        [BuiltPrograms.testClient, bus.address] + steps.joined(separator: ["--"])
    }

    /// Starts the test client as `user` (nil: root).
    func startClient(_ steps: [[String]], as user: String? = nil) throws -> (Process, Pipe, Pipe) {
        try bus.start(clientCommand(steps), as: user)
    }

    /// Starts the test client as `user` with exactly these groups: `primaryGroup`
    /// (a name or gid) and the supplementary `groups` (none: cleared); and these
    /// extra `setpriv` options (capabilities).
    func startClient(_ steps: [[String]], as user: String, primaryGroup: String, groups: [UInt32],
                     setpriv extra: [String] = []) throws -> (Process, Pipe, Pipe) {
        let groupOption = groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ",")
        return try bus.start(["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(primaryGroup)", groupOption] + extra
                             + clientCommand(steps))
    }

    /// Runs the test client as `user` (nil: root) to its end; what it printed.
    func runClient(_ steps: [[String]], as user: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        finish(try startClient(steps, as: user), sourceLocation: sourceLocation)
    }

    /// Runs the test client with exactly these groups to its end; what it printed.
    func runClient(_ steps: [[String]], as user: String, primaryGroup: String, groups: [UInt32],
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        finish(try startClient(steps, as: user, primaryGroup: primaryGroup, groups: groups), sourceLocation: sourceLocation)
    }

    /// Pumps until the client exits; returns what it printed, and records stderr as a failure.
    func finish(_ client: (Process, Pipe, Pipe), sourceLocation: SourceLocation = #_sourceLocation) -> String {
        pump { !client.0.isRunning }
        if client.0.isRunning { client.0.terminate() }
        client.0.waitUntilExit()
        let output = String(decoding: client.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: client.2.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(errors.isEmpty, "client failed: \(errors)", sourceLocation: sourceLocation)
        return output
    }

    /// Runs a client to its end.
    func run(_ body: String, as user: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        finish(try start(body, as: user), sourceLocation: sourceLocation)
    }

    /// `busctl` as root against the private bus; returns its output.
    func busctl(_ arguments: [String]) throws -> String {
        let (process, out, _) = try bus.busctl(arguments)
        pump { !process.isRunning }
        process.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The real `accessoryctl` against the private bus, as root or under
    /// `setpriv` with these options: status and stdout.
    func accessoryctl(_ arguments: [String], input: String? = nil, setpriv: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        let command = [BuiltPrograms.accessoryctl] + arguments + ["--bus-address", bus.address]
        process.executableURL = URL(fileURLWithPath: setpriv.isEmpty ? command[0] : "/usr/bin/setpriv")
        process.arguments = setpriv.isEmpty ? Array(command.dropFirst()) : setpriv + command
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        pump { !process.isRunning }
        process.waitUntilExit()
        return (process.terminationStatus,
                String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// An advertiser heard by the (replaced) radio.
    func hear(_ address: String, name: String, service: UInt16, rssi: Int8 = -50) {
        let device = BluetoothDeviceIdentifier(address: HardwareAddress(address)!, addressType: .public)
        let nameBytes = Array(name.utf8)
        let raw: [UInt8] = [2, 0x01, 0x06, UInt8(nameBytes.count + 1), 0x09] + nameBytes + [3, 0x03, UInt8(service & 0xFF), UInt8(service >> 8)]
        pipeline.record(Advertisement(
            device: device, properties: [.connectable], rssi: rssi,
            data: AdvertisingData(flags: 6, completeLocalName: nameBytes, completeServiceUUIDs: [BluetoothUUID(uuid16: service)]),
            rawAdvertisingData: raw))
    }

    /// A hotspot heard by the (replaced) radio.
    func hear(ssid: String, bssid: String, signal: Int = -40) {
        pipeline.record(WiFiNetwork(bssid: HardwareAddress(bssid)!, ssid: SSID(ssid)!, frequencyMHz: 2437, signalDBm: signal,
                                    security: .wpa2PSK))
    }
}
