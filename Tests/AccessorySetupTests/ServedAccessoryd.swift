import Foundation
import Glibc
import Synchronization
import TestSupport

/// The real accessoryd binary serving on a private bus, with the test kit's
/// capture of the Lab Sensor replayed in a loop as its only radio (as
/// `accessory-test-kit` runs it): what an app meets, killed and started
/// again as a restart or an upgrade does, with its grants kept in a state
/// directory of the test's own.
final class ServedAccessoryd {
    /// The app the user running the tests is: the capture's sensor is its to ask for.
    static let app = "restart-app"
    static let manifest = """
        [App]
        Name=\(app)
        User=\(ProcessInfo.processInfo.userName)
        Supports=Bluetooth

        [Bluetooth]
        ServiceUUIDs=180F
        Names=Lab Sensor

        """

    static var buildDirectory: URL {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: me).deletingLastPathComponent()
    }

    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging/test-kit/lab-sensor.btsnoop").path

    let bus: PrivateBus
    let scratch: ScratchDirectory
    private var process: Process?
    /// Everything it logged, over all its runs.
    let log = CollectedOutput()

    init(bus: PrivateBus) throws {
        self.bus = bus
        scratch = try ScratchDirectory("served-accessoryd")
        for directory in ["apps", "state"] {
            try FileManager.default.createDirectory(atPath: scratch.path(directory), withIntermediateDirectories: true)
        }
        try Self.manifest.write(toFile: scratch.path("apps/\(Self.app).conf"), atomically: true, encoding: .utf8)
        try "".write(toFile: scratch.path("accessoryd.conf"), atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    /// Starts it, and returns once it owns org.accessoryagent.
    func start() async throws {
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent("accessoryd")
        process.arguments = ["--replay", Self.capture, "--serve", "--replay-loop", "--apps", scratch.path("apps"),
                             "--config", scratch.path("accessoryd.conf"), "--log-target=console"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = nil
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        environment["STATE_DIRECTORY"] = scratch.path("state")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        log.collect(output)
        try process.run()
        self.process = process
        while try !ownsTheName() {
            guard process.isRunning else { throw Failure(description: "accessoryd ended at start:\n\(log.text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops it as systemd does (SIGTERM) and waits for it to be gone.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// `accessoryctl allow`: the next picker of the app is approved without anyone.
    func openApprovalWindow() throws {
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent("accessoryctl")
        process.arguments = ["allow", "--app", Self.app, "--for", "1h"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "accessoryctl allow failed") }
    }

    private func ownsTheName() throws -> Bool {
        let (process, out, _) = try bus.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "NameHasOwner", "s", "org.accessoryagent"])
        let answer = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return answer.hasPrefix("b true")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}

/// A process's output as it comes, read on Foundation's reader thread.
final class CollectedOutput: Sendable {
    private let buffer = Mutex("")

    var text: String { buffer.withLock { $0 } }

    func collect(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    /// Waits until the text so far satisfies `condition` (or `going` is
    /// false); the suite's time limit bounds it.
    func wait(while going: () -> Bool = { true }, until condition: (String) -> Bool) async throws {
        while !condition(text), going() { try await Task.sleep(for: .milliseconds(20)) }
    }
}
