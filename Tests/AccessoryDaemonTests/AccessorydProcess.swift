import Foundation
import Testing
import TestSupport

/// The real accessoryd binary as systemd starts it: a notify socket, the
/// test's private bus and state directory, the console log on a pipe.
enum AccessorydProcess {
    /// accessoryd (under `wrapper`, e.g. strace, when given), once it said READY.
    static func startReady(config: String, apps: String, bus: PrivateBus, state: String,
                           notifyDirectory: String, wrapper: [String] = []) throws -> (Process, Pipe) {
        let notify = try NotifySocket(path: notifyDirectory + "/notify-\(UUID().uuidString.prefix(8))")
        let command = wrapper + [DaemonProcessTests.daemonPath, "--config", config, "--log-target=console", "--apps", apps]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["STATE_DIRECTORY"] = state
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        _ = try #require(notify.receive(until: { $0.contains("READY=1") }))
        return (process, stderr)
    }
}
