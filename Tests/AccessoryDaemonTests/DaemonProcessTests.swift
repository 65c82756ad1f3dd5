import AccessoryPlatform
import AccessoryWire
import Foundation
import Glibc
import Testing
import TestSupport

/// Runs the real accessoryd binary as systemd would: a notify socket to
/// receive READY/STATUS/WATCHDOG/STOPPING, signals for reload and stop.
/// The host has no radios, so this is also the "no radios at all" case.
@Suite(.serialized) struct DaemonProcessTests {
    /// accessoryd sits beside the test bundle in the build folder.
    static var daemonPath: String { BuiltPrograms.accessoryd }

    /// The configuration and the notify socket; each test stops its daemon before it goes.
    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("accessoryd")
    }

    func start(config: String, arguments: [String] = [], environment extra: [String: String] = [:]) throws -> (Process, NotifySocket, Pipe) {
        #expect(FileManager.default.isExecutableFile(atPath: Self.daemonPath), "build accessoryd first")
        let socket = try NotifySocket(path: directory + "/notify")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.daemonPath)
        // Without a bus of the test's own there is none: discovery alone.
        let busOptional = extra["DBUS_SYSTEM_BUS_ADDRESS"] == nil ? ["--bus-optional"] : []
        process.arguments = ["--config", config, "--log-target=console"] + busOptional + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        return (process, socket, stderr)
    }

    @Test func startsWithoutRadiosSaysSoOnceAndStopsOnSIGINT() throws {
        let config = directory + "/accessoryd.conf"
        try "[Daemon]\nLogLevel=info\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, notify, stderr) = try start(config: config)

        let ready = try #require(notify.receive(until: { $0.contains("READY=1") }))
        #expect(ready.contains("STATUS=No radios found; waiting"))

        process.interrupt()
        _ = try #require(notify.receive(until: { $0.contains("STOPPING=1") }))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("No Bluetooth controller or Wi-Fi interface found"))
        #expect(log.components(separatedBy: "No Bluetooth controller or Wi-Fi interface found").count == 2)
    }

    @Test func badConfigurationOnReloadKeepsTheRunningOne() throws {
        let config = directory + "/accessoryd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, notify, stderr) = try start(config: config)
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))

        try "[Bluetooth]\nEnabled=maybe\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        _ = try #require(notify.receive(until: { $0.contains("RELOADING=1") }))
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))
        #expect(process.isRunning)

        kill(process.processIdentifier, SIGTERM)
        _ = try #require(notify.receive(until: { $0.contains("STOPPING=1") }))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\(config):2: invalid value 'maybe' for key 'Enabled' in [Bluetooth]"))
        #expect(log.contains("Keeping the running configuration"))
    }

    @Test func pingsTheWatchdogFromTheLoop() throws {
        let config = directory + "/empty.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        // WATCHDOG_PID must name the daemon itself, so start it through a
        // shell that sets it to its own pid before exec.
        let socket = try NotifySocket(path: directory + "/notify")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "WATCHDOG_PID=$$ exec \"$0\" --config \"$1\" --log-target=console --bus-optional", Self.daemonPath, config]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment["WATCHDOG_USEC"] = "200000"
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try #require(socket.receive(until: { $0.contains("READY=1") }))
        _ = try #require(socket.receive(until: { $0.contains("WATCHDOG=1") }))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Issue 12: a lost bus connection never leaves accessoryd alive and
    /// unreachable. The bus daemon under a running accessoryd is killed; it
    /// must say so (BUS_LOST) and exit non-zero, for Restart=on-failure.
    @Test func losingTheBusExitsNonZeroAndSaysSo() throws {
        let bus = try PrivateBus()
        let config = directory + "/accessoryd.conf"
        try "[Daemon]\nLogLevel=info\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, notify, stderr) = try start(config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))
        // It is on this bus, under its name.
        let (busctl, out, _) = try bus.busctl(["status", "org.accessoryagent"])
        busctl.waitUntilExit()
        let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status.contains("PID=\(process.processIdentifier)"))

        bus.stop()
        let stopping = notify.receive(until: { $0.contains("STOPPING=1") })
        if stopping == nil {
            Issue.record("accessoryd kept running without its bus")
            process.terminate()
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("Lost the D-Bus connection; exiting with status 69 to be restarted"))
    }

    /// Nor is a bus that cannot be reached at the start: the service has no
    /// other way to its apps, so it exits for systemd to try again.
    @Test func withoutItsBusAtTheStartTheServiceExitsNonZeroAndSaysSo() throws {
        let config = directory + "/accessoryd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let nowhere = "unix:path=" + directory + "/no-bus-here"
        let (process, notify, stderr) = try start(config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": nowhere])
        // systemctl status shows why; READY would mean it ran on.
        let first = notify.receive(until: { $0.contains("READY=1") || $0.contains("STATUS=D-Bus API not available") })
        #expect(first?.contains("STATUS=D-Bus API not available; exiting to be restarted") == true)
        if first?.contains("READY=1") == true { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("D-Bus API not available"))
        #expect(log.contains("exiting with status 69 to be restarted"))

        // With --bus-optional the same start runs on, discovery alone.
        let (optional, optionalNotify, _) = try start(config: config, arguments: ["--bus-optional"],
                                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": nowhere])
        _ = try #require(optionalNotify.receive(until: { $0.contains("READY=1") }))
        kill(optional.processIdentifier, SIGTERM)
        optional.waitUntilExit()
        #expect(optional.terminationStatus == 0)
    }

    /// The stall the issue reports closed the connection from inside:
    /// sd_bus_track installed an AddMatch per caller asynchronously, and
    /// sd-bus fails the whole connection when installing a match fails,
    /// whether the answer came after the 25 s timeout (the loop held up) or
    /// was a refusal (the bus daemon's limit of match rules per connection).
    /// accessoryd now follows callers with one match installed at start, so
    /// callers beyond that limit (here 1), all on the bus at once, cost it
    /// nothing: each gets its session, each session ends when its caller
    /// goes, and accessoryd stays on the bus.
    @Test func callersBeyondTheBussMatchLimitNeverCostAccessorydItsBus() throws {
        let bus = try PrivateBus(limits: ["max_match_rules_per_connection": 1])
        let apps = directory + "/apps.d"
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: false)
        try "[App]\nName=script\nUser=root\nSupports=Bluetooth\n[Bluetooth]\nServiceUUIDs=180F\n"
            .write(toFile: apps + "/script.conf", atomically: true, encoding: .utf8)
        let config = directory + "/accessoryd.conf"
        try "".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, notify, stderr) = try start(config: config, arguments: ["--apps", apps],
                                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address,
                                                                "STATE_DIRECTORY": directory])
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))
        // Three callers on the bus at once, a session each; then they go.
        var callers = try (1...3).map { _ in try BusConnection(address: bus.address, loop: nil) }
        let sessions = callers.map { caller in
            do throws(BusError) {
                return try caller.call(destination: BusNames.service, path: BusNames.root, interface: BusNames.manager,
                                       member: Manager1.openSession.name).readObjectPath()
            } catch { return error.name }
        }
        callers.removeAll()
        #expect(sessions == (1...3).map { "/org/accessoryagent/session/\($0)" })
        // Still on the bus, under its name, after they left.
        let (busctl, status, _) = try bus.busctl(["call", "org.accessoryagent", "/org/accessoryagent",
                                                  "org.accessoryagent.Manager1", "OpenSession"])
        busctl.waitUntilExit()
        #expect(String(decoding: status.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            == "o \"/org/accessoryagent/session/4\"\n")

        kill(process.processIdentifier, SIGTERM)
        _ = notify.receive(until: { $0.contains("STOPPING=1") })
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.components(separatedBy: "Session ended: its caller left the bus").count == 5)
        #expect(!log.contains("Lost the D-Bus connection"))
    }

    @Test func invalidConfigurationStopsTheStartNamingFileLineAndKey() throws {
        let config = directory + "/bad.conf"
        try "[Daemon]\nLogLevel=info\n[Bluetooth]\nColour=blue\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (process, _, stderr) = try start(config: config)
        process.waitUntilExit()
        #expect(process.terminationStatus == 78)
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("\(config):4: unknown key 'Colour' in [Bluetooth]"))
    }
}

/// The receiving end of NOTIFY_SOCKET: a datagram socket, as systemd has.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, SocketType.datagram, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // A message that never comes fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The first datagram satisfying `condition`, or nil after a timeout.
    func receive(until condition: (String) -> Bool) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            if condition(message) { return message }
        }
    }
}
