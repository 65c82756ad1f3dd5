import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

/// packaging/dbus/org.accessoryagent.conf in a real dbus-daemon whose default
/// policy is the system bus's (method calls denied unless a policy allows
/// them), with the administrator group renamed to a throwaway group: the bus
/// lets anyone reach Admin1 (accessoryd decides: the group, or polkit's
/// org.accessoryagent.administer, which the bus cannot ask) and the rest.
@Suite(.serialized) struct ShippedBusPolicyTests {
    static let shipped = PackagingTests.packaging.appendingPathComponent("dbus/org.accessoryagent.conf")


    @Test func thePackageCreatesTheGroupThePolicyAndTheDaemonName() throws {
        let name = AdministratorGroup.defaultName
        let policy = try String(contentsOf: Self.shipped, encoding: .utf8)
        #expect(policy.contains("<policy group=\"\(name)\">"))
        let sysusers = try String(
            contentsOf: PackagingTests.packaging.appendingPathComponent("debian/accessoryd.sysusers"), encoding: .utf8)
        #expect(sysusers.split(separator: "\n").contains("g \(name) -"))
    }

    @Test func everyoneReachesAdmin1ThroughTheBusAndAccessorydDecides() throws {
        let setup = try ShippedPolicySetup()
        let (gid, bus, loop, connection) = (setup.gid, setup.bus, setup.loop, setup.connection)
        // Whatever reaches the service is answered; only the bus refuses.
        try connection.serve(path: BusNames.root) { call, connection in
            connection.reply(to: call).map { .reply($0.append("reached \(call.member ?? "")")) }
        }
        func call(_ interface: String, _ member: String, as privileges: [String]) throws -> String {
            let (process, out, err) = try bus.start(
                ["/usr/bin/setpriv"] + privileges + ["/usr/bin/busctl", "--address=\(bus.address)", "call",
                 BusNames.service, BusNames.root, interface, member])
            for _ in 0..<200 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(50)) }
            process.waitUntilExit()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return process.terminationStatus == 0 ? output : errors.contains("Access denied") ? "denied" : "failed: \(errors)"
        }
        let root = ["--reuid=root", "--regid=root", "--clear-groups"]
        let member = ["--reuid=nobody", "--regid=nogroup", "--groups=\(gid)"]
        let outsider = ["--reuid=nobody", "--regid=nogroup", "--groups=1,\(gid + 1)"]
        #expect(try call(BusNames.admin, "ListRequests", as: root) == "s \"reached ListRequests\"\n")
        #expect(try call(BusNames.admin, "ListRequests", as: member) == "s \"reached ListRequests\"\n")
        #expect(try call(BusNames.admin, "ListRequests", as: outsider) == "s \"reached ListRequests\"\n")
        // Apps reach the rest of accessoryd whatever their groups.
        #expect(try call(BusNames.manager, "OpenSession", as: outsider) == "s \"reached OpenSession\"\n")
    }
}

extension ShippedBusPolicyTests {
    /// A member's picker agent gets accessoryd's calls: root may send
    /// PickerAgent1 to any connection.
    @Test func accessorydReachesAMembersPickerAgent() throws {
        let setup = try ShippedPolicySetup()
        let (gid, bus, loop, connection) = (setup.gid, setup.bus, setup.loop, setup.connection)
        let (process, out, err) = try bus.start([
            "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=\(gid)",
            BuiltPrograms.testClient, bus.address, "serve", "/org/example/picker", "--", "name", "--", "until", "RequestAdded",
        ])
        var name = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            name.append(byte)
        }
        try connection.send(destination: String(decoding: name, as: UTF8.self), path: "/org/example/picker",
                            interface: BusNames.pickerAgent, member: "RequestAdded") {
            _ = $0.append(UInt32(3)).append("sensor-logger").append(strings: ["Battery sensor"]).append(strings: [""])
        }
        for _ in 0..<400 where process.isRunning { _ = loop.runOnce(timeout: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "RequestAdded 3 sensor-logger [Battery sensor] []\n")
        #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "")
    }
}

/// A throwaway group, a system-like bus with the shipped policy naming that
/// group instead of accessory-admin, and a connection owning accessoryd's name.
final class ShippedPolicySetup {
    let group = TemporaryGroup()
    let gid: UInt32
    let bus: PrivateBus
    let loop: EventLoop
    let connection: BusConnection

    init() throws {
        gid = try group.create()
        let policy = try String(contentsOf: ShippedBusPolicyTests.shipped, encoding: .utf8)
            .replacingOccurrences(of: "group=\"\(AdministratorGroup.defaultName)\"", with: "group=\"\(group.name)\"")
        bus = try PrivateBus(policy: .systemBus(including: policy))
        loop = try EventLoop()
        connection = try BusConnection(address: bus.address, loop: loop)
        try connection.requestName(BusNames.service)
    }
}
