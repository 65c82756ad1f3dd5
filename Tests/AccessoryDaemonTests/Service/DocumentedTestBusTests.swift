import Foundation
import Testing
import TestSupport

/// Item 7 of issue 24: what the documentation tells a developer to set up
/// is safe as written. accessoryd-dbus(7)'s test-bus configuration is run by
/// a real dbus-daemon: another user cannot own, or queue for,
/// org.accessoryagent; the user who runs accessoryd can. And the README says
/// where a property cache must live.
@Suite struct DocumentedTestBusTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theManPagesTestBusLetsOnlyAccessorydsUserOwnItsName() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("packaging/man/accessoryd-dbus.7"), encoding: .utf8)
        let start = try #require(page.range(of: "<busconfig>"))
        let end = try #require(page.range(of: "</busconfig>", range: start.upperBound..<page.endIndex))
        let scratch = try ScratchDirectory("documented-bus")
        chmod(scratch.path, 0o755)
        let socket = scratch.path + "/bus"
        let config = String(page[start.lowerBound..<end.upperBound])
            .replacingOccurrences(of: "/tmp/t/bus", with: socket)
            .replacingOccurrences(of: "user=\"tester\"", with: "user=\"root\"")
        try config.write(toFile: scratch.path + "/bus.conf", atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(scratch.path)/bus.conf", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        // dbus-daemon ignores SIGTERM here (see PrivateBus).
        defer { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        let address = String(decoding: line, as: UTF8.self)
        #expect(address.contains(socket))

        func requestName(as user: [String]) throws -> (Int32, String) {
            let busctl = Process()
            busctl.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            busctl.arguments = user + ["/usr/bin/busctl", "--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName", "su", "org.accessoryagent", "0"]
            let out = Pipe()
            busctl.standardOutput = out
            busctl.standardError = out
            try busctl.run()
            busctl.waitUntilExit()
            return (busctl.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        // Another user: neither owner nor in the queue (flags 0 would queue it).
        let other = try requestName(as: ["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        #expect(other.0 != 0 && !other.1.contains("u 1"), "\(other)")
        // accessoryd's user (here root) owns it.
        let owner = try requestName(as: ["--reuid=0", "--regid=0", "--clear-groups"])
        #expect(owner == (0, "u 1\n"), "\(owner)")
    }

    @Test func theReadmeSaysAPropertyCacheLivesOnAConnectionHoldingASession() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("a property cache must live on a\nconnection that holds a session"))
    }
}
