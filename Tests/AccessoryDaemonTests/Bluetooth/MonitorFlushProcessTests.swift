import Foundation
import Glibc
import Testing
import TestSupport

/// `--monitor` gathers its lines and writes them together, but a running
/// daemon still hands them to a pipe as soon as it has handled what it heard,
/// not at its exit: here a served capture's lines are all read while the
/// daemon keeps running.
@Suite struct MonitorFlushProcessTests {
    @Test func aRunningDaemonsLinesReachThePipeBeforeItExits() throws {
        let scratch = try ScratchDirectory("monitor-flush")
        let expected = try ReplayTests.monitorLines("lab-passive-scan.btsnoop")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcessTests.daemonPath)
        process.arguments = [
            "--replay", ReplayTests.fixtures.appendingPathComponent("lab-passive-scan.btsnoop").path, "--serve",
            "--replay-speed", "max", "--monitor", "--config", "/dev/null", "--log-target=console",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["STATE_DIRECTORY"] = scratch.path("state")
        environment["RUNTIME_DIRECTORY"] = scratch.path("runtime")
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + scratch.path("no-bus")
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }

        // Read until every line is there (or a generous minute is up), while the daemon runs on.
        let fd = stdout.fileHandleForReading.fileDescriptor
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(60)
        while output.filter({ $0 == UInt8(ascii: "\n") }).count < expected.count, Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        #expect(process.isRunning)
        #expect(String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init) == expected)
    }
}
