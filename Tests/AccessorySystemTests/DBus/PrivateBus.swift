import Foundation
import Glibc

/// A real dbus-daemon of the test's own, on a socket in a temporary
/// directory, so bus tests never touch the machine's buses.
final class PrivateBus {
    let address: String
    private let daemon: Process

    init() throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // The first line dbus-daemon prints is its address.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        address = String(decoding: line, as: UTF8.self)
    }

    deinit {
        // dbus-daemon ignores SIGTERM here; it holds nothing worth a clean exit.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    /// Runs `busctl --address=… ARGS` in the background; the caller pumps
    /// its own event loop until the returned process ends.
    func busctl(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=\(address)"] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }
}
