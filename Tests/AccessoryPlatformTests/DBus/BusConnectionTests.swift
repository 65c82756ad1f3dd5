import Foundation
import Glibc
import Testing
@testable import AccessoryPlatform
import TestSupport

/// sd-bus on the daemon's event loop against a real dbus-daemon, driven by
/// busctl as an administrator or an app would drive it.
@Suite(.serialized) struct BusConnectionTests {
    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection

    init() throws {
        bus = try PrivateBus()
        loop = try EventLoop()
        connection = try BusConnection(address: bus.address, loop: loop)
        try connection.requestName("org.accessoryagent.Test")
    }

    /// Pumps the loop until `process` ends; returns its stdout and stderr.
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let (process, out, err) = try bus.busctl(arguments)
        for _ in 0..<200 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(50)) }
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    @Test func answersAMethodCallWithTheCallersCredentials() throws {
        try connection.serve(path: "/org/accessoryagent/test") { call, connection in
            guard call.member == "Echo" else { return nil }
            do throws(BusError) {
                let text = try call.readString()
                let caller = try connection.credentials(of: call)
                guard let reply = connection.reply(to: call) else { return nil }
                return .reply(reply.append(text).append(caller.uid).append(caller.userName ?? ""))
            } catch {
                return .error(error)
            }
        }
        let result = try run(["call", "org.accessoryagent.Test", "/org/accessoryagent/test",
                              "org.accessoryagent.Test1", "Echo", "s", "hello \"world\""])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "sus \"hello \\\"world\\\"\" \(getuid()) \"\(CallerCredentials.userName(getuid()) ?? "")\"\n")
    }

    @Test func errorsReachTheCallerByName() throws {
        try connection.serve(path: "/org/accessoryagent/test") { call, _ in
            .error(BusError(name: "org.accessoryagent.Error.InvalidRequest", message: "service UUID 180F is not declared"))
        }
        let result = try run(["call", "org.accessoryagent.Test", "/org/accessoryagent/test",
                              "org.accessoryagent.Test1", "Anything"])
        #expect(result.status != 0)
        #expect(result.err.contains("service UUID 180F is not declared"))
    }

    @Test func wrongArgumentTypesAreInvalidArgs() throws {
        try connection.serve(path: "/org/accessoryagent/test") { call, connection in
            do throws(BusError) {
                _ = try call.readString()
                return connection.reply(to: call).map { .reply($0) }
            } catch {
                return .error(error)
            }
        }
        let result = try run(["call", "org.accessoryagent.Test", "/org/accessoryagent/test",
                              "org.accessoryagent.Test1", "Echo", "u", "7"])
        #expect(result.status != 0)
        #expect(result.err.contains("expected a string argument"))
    }

    @Test func aSubtreeHandlerSeesPathsBelowIt() throws {
        try connection.serve(path: "/org/accessoryagent/session", subtree: true) { call, connection in
            connection.reply(to: call).map { .reply($0.append(call.path ?? "")) }
        }
        let result = try run(["call", "org.accessoryagent.Test", "/org/accessoryagent/session/7",
                              "org.accessoryagent.Session1", "Path"])
        #expect(result.out == "s \"/org/accessoryagent/session/7\"\n")
    }

    @Test func unknownPathsAreRefusedBySdBus() throws {
        let result = try run(["call", "org.accessoryagent.Test", "/nowhere", "org.accessoryagent.Test1", "X"])
        #expect(result.status != 0)
    }

    @Test func noticesWhenTheCallerLeavesTheBus() throws {
        var left = 0
        try connection.serve(path: "/org/accessoryagent/test") { call, connection in
            try? connection.whenSenderLeaves(call) { left += 1 }
            return connection.reply(to: call).map { .reply($0) }
        }
        _ = try run(["call", "org.accessoryagent.Test", "/org/accessoryagent/test", "org.accessoryagent.Test1", "Hello"])
        // busctl has exited; its connection is gone once the bus says so.
        for _ in 0..<40 where left == 0 { _ = loop.runOnce(timeout: .milliseconds(50)) }
        #expect(left == 1)
    }
}
