import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 22: `accessoryctl approve <TAB>` offers pending requests' numbers and
/// `remove <TAB>` accessories' ids, asked of the running accessoryd (the real
/// one, on a private bus, the Lab Sensor replayed); silent when it is not
/// running or the caller may not ask. Here because `ServedAccessoryd` is.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AccessoryctlCompletionTests {
    let bus: PrivateBus
    let accessoryd: ServedAccessoryd

    init() throws {
        bus = try PrivateBus()
        accessoryd = try ServedAccessoryd(bus: bus)
    }

    static let accessoryctl = ServedAccessoryd.buildDirectory.appendingPathComponent("accessoryctl").path

    /// `accessoryctl ARGS` on the private bus (as `user` when given): status, stdout, stderr.
    func accessoryctl(_ arguments: [String], as user: String? = nil) throws -> (Int32, String, String) {
        let (process, out, err) = try bus.start(
            ["/usr/bin/env", "DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", Self.accessoryctl] + arguments, as: user)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    /// What bash completes for `words` (the last is being completed) with the
    /// script `accessoryctl --generate-completion-script bash` prints.
    func complete(_ words: [String]) throws -> [String] {
        let script = try accessoryctl(["--generate-completion-script", "bash"]).1
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let (process, out, _) = try bus.start([
            "/usr/bin/env", "DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)",
            "PATH=\(ServedAccessoryd.buildDirectory.path):/usr/bin:/bin", "bash", "-c",
            script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _accessoryctl; printf '%s\\n' \"${COMPREPLY[@]}\"\n",
        ])
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").map(String.init)
    }

    @Test func requestsAndAccessoriesComeFromTheRunningDaemon() async throws {
        // Nobody owns the name: nothing, silently.
        #expect(try accessoryctl(["--completion-words", "requests"]) == (0, "", ""))
        #expect(try complete(["accessoryctl", "approve", ""]) == [])

        try await accessoryd.start()
        #expect(try accessoryctl(["--completion-words", "requests"]) == (0, "", ""))
        // An app asks for the sensor: request 1, pending until approved.
        let (app, _, _) = try bus.start([
            ExampleAppTests.example, "--bus-address", bus.address, "--bluetooth-service", "180F",
            "--name-substring", "Lab Sensor",
        ])
        defer {
            if app.isRunning { kill(app.processIdentifier, SIGKILL) }
            app.waitUntilExit()
        }
        while try !accessoryctl(["requests"]).1.contains("Lab Sensor") { try await Task.sleep(for: .milliseconds(50)) }

        #expect(try accessoryctl(["--completion-words", "requests"]) == (0, "1\n", ""))
        #expect(try complete(["accessoryctl", "approve", ""]) == ["1"])
        #expect(try complete(["accessoryctl", "deny", "--bus-address", bus.address, ""]) == ["1"])
        // The candidate's number is not a request's.
        #expect(try complete(["accessoryctl", "approve", "1", ""]) == [])
        // Admin1 is root's and accessory-admin's: anyone else is offered nothing, and sees no error.
        #expect(try accessoryctl(["--completion-words", "requests"], as: "nobody") == (0, "", ""))

        #expect(try accessoryctl(["approve", "1", "1"]).0 == 0)
        let id = try #require(try accessoryctl(["accessories"]).1.split(separator: "\n").dropFirst().first?
            .split(separator: " ").first.map(String.init))
        #expect(try accessoryctl(["--completion-words", "accessories"]) == (0, id + "\n", ""))
        #expect(try complete(["accessoryctl", "remove", ""]) == [id])
        #expect(try complete(["accessoryctl", "rename", String(id.prefix(3))]) == [id])
        #expect(try complete(["accessoryctl", "rename", id, ""]) == [])

        accessoryd.stop()
        #expect(try complete(["accessoryctl", "remove", ""]) == [])
    }
}
