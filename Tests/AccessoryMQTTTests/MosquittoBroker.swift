import Foundation
import Glibc
import Testing
import TestSupport

/// A real mosquitto on loopback, started by the test on a free port with its
/// own configuration in a temporary directory; killed when released.
final class MosquittoBroker {
    let port: Int
    let scratch: ScratchDirectory
    /// Lines added to the listener's configuration (TLS files, a password file).
    let settings: String
    /// Retained messages kept on disk across a clean stop (`stop()`), as a packaged mosquitto keeps them.
    let persistent: Bool
    private var process: Process?

    init(settings: String = "allow_anonymous true", port: Int? = nil, persistent: Bool = false) throws {
        scratch = try ScratchDirectory("mosquitto")
        self.settings = settings
        self.persistent = persistent
        self.port = try port ?? Self.freePort()
        try start()
    }

    deinit { kill() }

    func start() throws {
        let config = scratch.path("mosquitto.conf")
        try """
            persistence \(persistent)
            persistence_location \(scratch.path)/
            user \(ProcessInfo.processInfo.userName)
            log_dest file \(scratch.path("mosquitto.log"))
            log_type all
            listener \(port) 127.0.0.1
            \(settings)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let process = Process()
        // Through perl (perl-base), which unblocks every signal and execs it: the test
        // process's threads block SIGTERM, and mosquitto would inherit that and never see `stop()`.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = ["-MPOSIX", "-e", "sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec @ARGV or die",
                             "/usr/sbin/mosquitto", "-c", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Bounded: a broker that never listens fails the test rather than hangs it.
        for _ in 0..<200 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(25_000)
        }
        throw BrokerError("mosquitto did not listen on \(port): \(log)")
    }

    /// SIGKILL, as a crash would: retained messages go with it (no persistence).
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, as `systemctl stop mosquitto` does: a persistent broker saves its retained messages first.
    func stop() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    var log: String { (try? String(contentsOfFile: scratch.path("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Every retained message now, by topic: `mosquitto_sub` as a subscriber
    /// would run it (`extra`: its TLS or login options).
    func retained(_ filter: String = "#", extra: [String] = []) throws -> [String: String] {
        // A second of what the broker sends at once: the retained messages. Ended by
        // timeout's SIGKILL, not by mosquitto_sub's -W: that is SIGALRM, which a
        // child of the test process may inherit blocked.
        let (status, out) = try Self.run("/usr/bin/timeout", [
            "-s", "KILL", "1", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-t", filter, "-v", "--retained-only",
        ] + extra)
        // 0: it ended by itself once the retained were through (--retained-only);
        // 9 or 137: killed at the end of the second, timeout with it (its process group).
        guard [0, 9, 137].contains(status) else { throw BrokerError("mosquitto_sub ended (\(status)): \(out)") }
        var messages: [String: String] = [:]
        for line in out.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            messages[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return messages
    }

    /// The retained messages once `condition` holds, trying for up to a minute.
    func retained(until condition: ([String: String]) -> Bool, extra: [String] = []) throws -> [String: String] {
        var last: [String: String] = [:]
        for _ in 0..<60 {
            last = try retained(extra: extra)
            if condition(last) { return last }
        }
        return last
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A port nobody listens on now: the kernel's choice for a socket bound to port 0.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BrokerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `mosquitto_sub -R` left running: what the broker sends live, after the
/// subscription (-R leaves out the retained messages it sends first), one
/// `topic payload` line each.
final class LiveSubscriber {
    let broker: MosquittoBroker
    let filter: String
    private let process = Process()
    private let output: String

    init(_ broker: MosquittoBroker, filter: String) throws {
        self.broker = broker
        self.filter = filter
        output = broker.scratch.path("live-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", filter, "-v", "-R"]
        process.standardOutput = file
        process.standardError = file
        try process.run()
        try waitUntilSubscribed()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var lines: [String] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The subscription is in place once a marker published under the filter comes back (bounded: a minute).
    private func waitUntilSubscribed() throws {
        let marker = filter.replacingOccurrences(of: "#", with: "") + "test-marker"
        for _ in 0..<120 {
            _ = try MosquittoBroker.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-t", marker, "-m", "x"])
            if waitFor({ $0.hasPrefix(marker + " ") }, tries: 5) { return }
        }
        throw BrokerError("mosquitto_sub never received \(marker)")
    }

    /// Waits (bounded: `tries` of 100 ms) until a line received matches.
    func waitFor(_ matches: (String) -> Bool, tries: Int = 600) -> Bool {
        for _ in 0..<tries {
            if lines.contains(where: matches) { return true }
            usleep(100_000)
        }
        return false
    }
}
