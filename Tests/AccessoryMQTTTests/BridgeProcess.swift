import Foundation
import Glibc
import TestSupport

/// accessory-mqtt, the built executable, run as its unit would run it, with
/// its configuration in a scratch directory and its log in a file.
final class BridgeProcess {
    static var executable: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("accessory-mqtt").path
    }

    let scratch: ScratchDirectory
    private var process: Process?

    /// `configuration`: the file's text; `busAddress`: accessoryd's bus (nil: none reachable);
    /// `wrapper`: a command the bridge runs under (it ends with `exec "$@"` or the like).
    init(configuration: String, busAddress: String?, files: [String: String] = [:], wrapper: [String] = []) throws {
        scratch = try ScratchDirectory("accessory-mqtt")
        for (name, text) in files { try text.write(toFile: scratch.path(name), atomically: true, encoding: .utf8) }
        try configuration.replacingOccurrences(of: "@DIR@", with: scratch.path)
            .write(toFile: scratch.path("accessory-mqtt.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        let command = wrapper + [Self.executable, "--config", scratch.path("accessory-mqtt.conf")]
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = busAddress ?? "unix:path=/nonexistent"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: scratch.path("log"), contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("log")))
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
    }

    deinit { kill(SIGKILL) }

    var log: String { (try? String(contentsOfFile: scratch.path("log"), encoding: .utf8)) ?? "" }

    /// Waits (bounded: a minute) until the log has `text`, `times` times.
    func waitForLog(_ text: String, times: Int = 1) -> Bool {
        for _ in 0..<600 {
            if log.components(separatedBy: text).count > times { return true }
            usleep(100_000)
        }
        return false
    }

    func kill(_ signal: Int32) {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    var isRunning: Bool { process?.isRunning ?? false }
}
