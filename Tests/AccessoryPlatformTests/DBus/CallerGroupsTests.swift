import Foundation
import Glibc
import Testing
@testable import AccessoryPlatform
import TestSupport

/// The caller's groups as the bus vouches for them (the administrator group
/// is checked against these), and group names looked up in the system's
/// group database.
@Suite(.serialized) struct CallerGroupsTests {
    @Test func theCallersPrimaryAndSupplementaryGidsComeFromTheBusDaemon() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try BusConnection(address: bus.address, loop: loop)
        try connection.requestName("org.accessoryagent.Test")
        try connection.serve(path: "/org/accessoryagent/test") { call, connection in
            do throws(BusError) {
                let groups = try connection.groups(of: call) ?? []
                return connection.reply(to: call).map { .reply($0.append(groups.map(String.init).joined(separator: " "))) }
            } catch {
                return .error(error)
            }
        }
        // nobody, with primary group 65534 and supplementary groups 4 (adm) and 20 (dialout).
        let nogroup = try #require(try UnixGroup.gid(named: "nogroup"))
        let (process, out, err) = try bus.start([
            "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=20,4",
            "/usr/bin/busctl", "--address=\(bus.address)", "call", "org.accessoryagent.Test", "/org/accessoryagent/test",
            "org.accessoryagent.Test1", "Groups",
        ])
        for _ in 0..<200 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(50)) }
        process.waitUntilExit()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        let printed = output.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let groups = printed.split(separator: " ").compactMap { UInt32($0) }
        #expect(Set(groups) == [nogroup, 4, 20])
    }

    @Test func aGroupIsFoundByName() throws {
        #expect(try UnixGroup.gid(named: "root") == 0)
        #expect(try UnixGroup.gid(named: "nogroup") == 65534)
    }

    @Test func aMissingGroupIsNil() throws {
        #expect(try UnixGroup.gid(named: "no-such-group-\(UInt32.random(in: 0...UInt32.max))") == nil)
    }
}
