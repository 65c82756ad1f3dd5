import AccessoryPlatform
import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 12's counts, on the real accessoryd binary against a private
/// dbus-daemon: a hostile app floods it (every flood of `HostileClientTests`)
/// and apps leave the bus at every step; accessoryd's own open descriptors
/// (/proc/PID/fd) are the same before and after, and its resident memory
/// (VmRSS) stays within a generous bound. Counts, never timings.
@Suite(.serialized) struct HostileFloodProcessTests {
    static let manifest = """
        [App]
        Name=hostile
        User=daemon
        Supports=Bluetooth

        [Bluetooth]
        ServiceUUIDs=180F
        Names=Porch
        """

    @Test func aFloodAndAppsLeavingAtEveryStepLeaveDescriptorsAndMemoryAsTheyWere() throws {
        let scratch = try ScratchDirectory("hostile-process")
        let bus = try PrivateBus()
        let apps = scratch.path + "/apps.d"
        let state = scratch.path + "/state"
        for directory in [apps, state] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false) }
        try Self.manifest.write(toFile: apps + "/hostile.conf", atomically: true, encoding: .utf8)
        let config = scratch.path + "/accessoryd.conf"
        // The argument limits are what this floods; the rate bound has its own test (OutsideClientTests).
        try "[Limits]\nRequestBurst=1000000\n".write(toFile: config, atomically: true, encoding: .utf8)
        let notify = try NotifySocket(path: scratch.path + "/notify")
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonProcessTests.daemonPath)
        daemon.arguments = ["--config", config, "--apps", apps, "--log-target=console"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        environment["STATE_DIRECTORY"] = state
        environment["RUNTIME_DIRECTORY"] = state
        daemon.environment = environment
        let log = scratch.path + "/log"
        FileManager.default.createFile(atPath: log, contents: nil)
        daemon.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try daemon.run()
        defer {
            if daemon.isRunning { daemon.terminate() }
            daemon.waitUntilExit()
        }
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))
        let pid = daemon.processIdentifier

        // Warm up what accessoryd keeps for good once used (a session, a request, its tracking).
        let warmUp = try client(bus, scratch, HostileClientTests.attempt + """
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, S, "Activate")
            attempt("show", s, S, "ShowPicker", [item()], no_settings)
            attempt("dismiss", s, S, "DismissPicker")
            """)
        #expect(warmUp == "show ok\ndismiss ok\n")
        try settle(bus)
        let descriptorsBefore = try Self.openDescriptors(of: pid)
        let memoryBefore = try Self.residentKiB(of: pid)

        let flooded = try client(bus, scratch, HostileClientTests.attempt + """
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, S, "Activate")
            \(HostileClientTests.flood)
            sessions = [call(manager, "org.accessoryagent.Manager1", "OpenSession") for i in range(20)]
            print("sessions", sum(1 for x in sessions if not str(x).startswith("error")), flush=True)
            """)
        let lines = flooded.split(separator: "\n")
        #expect(lines.count == 15)
        #expect(lines.dropLast().allSatisfy { $0.contains(" org.accessoryagent.Error.invalidRequest ") }, "\(flooded)")
        #expect(lines.last == "sessions 15")
        // Gone at every step, without a word.
        for step in ["open", "activate", "picker", "migration", "invalidated"] {
            _ = try client(bus, scratch, HostileClientTests.attempt + """
                import os
                step = "\(step)"
                s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
                if step != "open": call(s, S, "Activate")
                if step == "picker": attempt("show", s, S, "ShowPicker", [item()], no_settings)
                if step == "migration": attempt("migrate", s, S, "Migrate", dbus.Array([("Old", "C0:FF:EE:00:00:60", "", dbus.Dictionary({}, signature="ss"))], signature="(sssa{ss})"))
                if step == "invalidated": attempt("invalidate", s, S, "Invalidate")
                os._exit(0)
                """)
        }
        try settle(bus)
        #expect(try Self.openDescriptors(of: pid) == descriptorsBefore)
        let grown = try Self.residentKiB(of: pid) - memoryBefore
        #expect(grown < 64 * 1024, "accessoryd's resident memory grew by \(grown) KiB")
        // Nothing is pending: every request went with its app.
        let (listing, out, _) = try bus.busctl(["call", "org.accessoryagent", "/org/accessoryagent",
                                               "org.accessoryagent.Admin1", "ListRequests"])
        listing.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "a(ussasuasi) 0\n")

        kill(pid, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!logged.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a raw control character in the log")
        #expect(!logged.contains(String(repeating: "x", count: 2048)))
    }

    /// Runs a python3-dbus client as the hostile app (unix user `daemon`) to its end; its output.
    /// Python on purpose: `HostileClientTests`' floods, marshalled by another library than AccessoryWire.
    private func client(_ bus: PrivateBus, _ scratch: ScratchDirectory, _ body: String) throws -> String {
        let script = scratch.path + "/client-\(UUID()).py"
        try (ServiceHarness.prelude + body).write(toFile: script, atomically: true, encoding: .utf8)
        chmod(scratch.path, 0o755)
        let (process, out, err) = try bus.start(["/usr/bin/python3", script, bus.address], as: "daemon")
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(errors.isEmpty, "client failed: \(String(decoding: errors, as: UTF8.self))")
        return String(decoding: output, as: UTF8.self)
    }

    /// One round trip to accessoryd after the clients left: the bus queued
    /// their departures before it, so accessoryd has handled them when it answers.
    private func settle(_ bus: PrivateBus) throws {
        let (ping, _, _) = try bus.busctl(["call", "org.accessoryagent", "/org/accessoryagent", "org.freedesktop.DBus.Peer", "Ping"])
        ping.waitUntilExit()
        #expect(ping.terminationStatus == 0)
    }

    static func openDescriptors(of pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// VmRSS from /proc/PID/status, in KiB.
    static func residentKiB(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
