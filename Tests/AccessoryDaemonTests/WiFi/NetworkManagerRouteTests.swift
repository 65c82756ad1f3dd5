import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Foundation
import Glibc
import Testing
import TestSupport

@testable import AccessoryDaemon

/// The NetworkManager route of a join on a real private dbus-daemon: with no
/// NetworkManager on it, with one that never answers, and with one that
/// refuses the activation as NetworkManager does without the polkit rule.
/// The stand-ins are bus peers of the test's own; the route against the real
/// NetworkManager is the lab's (Tests/Lab/scenarios/wifi-nm-*). Asserted: the
/// order of things on the loop and the typed results, never durations.
@Suite("Hotspot joins through NetworkManager", .serialized)
struct NetworkManagerRouteTests {
    let scratch: ScratchDirectory
    let bus: PrivateBus
    var settings: HotspotJoinSettings

    init() throws {
        scratch = try ScratchDirectory("nm-join")
        bus = try PrivateBus()
        let devices = scratch.path("devices")
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
        // NetworkManager's run state saying it manages "lo": the route is NetworkManager.
        try "[device]\nmanaged=true\n".write(toFile: "\(devices)/\(if_nametoindex("lo"))", atomically: true, encoding: .utf8)
        settings = HotspotJoinSettings(
            controlDirectory: scratch.path("no-wpa"), runtimeDirectory: scratch.path("run"),
            stateDirectory: scratch.path("state"), networkManagerDirectory: devices, requestTimeout: .seconds(1))
        settings.networkManagerBusAddress = bus.address
        settings.networkManagerRequestTimeout = .seconds(1)
    }

    private func run(_ loop: EventLoop, until done: () -> Bool) {
        for _ in 0..<200 where !done() { _ = loop.runOnce(timeout: .seconds(1)) }
    }

    private var recordPath: String { scratch.path("state/\(NetworkManagerJoinRecord.fileName(interface: "lo"))") }

    @Test("NetworkManager not on the bus: the join ends typed, nothing recorded, the interface given back")
    func notRunning() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let joiner = HotspotJoiner(loop: loop, settings: settings)
        var result: HotspotJoinResult?
        let join = try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { result = $0 }
        #expect(join.route == .networkManager)
        run(loop) { result != nil && joiner.join(on: "lo") == nil }
        #expect(result == .failed(reason: "NetworkManager is not running"))
        #expect(joiner.join(on: "lo") == nil)
        #expect(!FileManager.default.fileExists(atPath: recordPath))
    }

    @Test("a NetworkManager that never answers: the loop serves other sources, the join ends at the call's deadline")
    func stalled() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let standIn = try BusConnection(address: bus.address, loop: loop)
        try standIn.requestName("org.freedesktop.NetworkManager")
        var order: [String] = []
        var result: HotspotJoinResult?
        let other = try EventLoopWakeup()
        try loop.watch(other) { order.append(result == nil ? "other source served, join pending" : "other source served, join over") }
        try standIn.serve(path: "/", subtree: true) { call, _ in
            order.append("NetworkManager got \(call.member ?? "")")
            other.wake()
            return .deferred
        }
        let joiner = HotspotJoiner(loop: loop, settings: settings)
        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { ended in
            result = ended
            order.append("join ended")
        }
        run(loop) { result != nil && joiner.join(on: "lo") == nil }
        #expect(order == ["NetworkManager got GetDeviceByIpIface", "other source served, join pending", "join ended"])
        #expect(result == .failed(reason: "NetworkManager did not answer GetDeviceByIpIface"))
        #expect(joiner.join(on: "lo") == nil)
        withExtendedLifetime(standIn) {}
    }

    @Test("refused for want of polkit's permission: the error names it, never the passphrase; the record is removed")
    func permissionDenied() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let standIn = try BusConnection(address: bus.address, loop: loop)
        try standIn.requestName("org.freedesktop.NetworkManager")
        var calls: [String] = []
        var recordDuringActivation: String?
        var activationSignature = ""
        try standIn.serve(path: "/", subtree: true) { [recordPath] call, connection in
            let member = call.member ?? ""
            calls.append(member)
            let reply = connection.reply(to: call)!
            switch member {
            case "GetDeviceByIpIface": return .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/Devices/1"))
            case "Get": return .reply(reply.append(variant: .objectPath("/")))
            case "AddAndActivateConnection2":
                activationSignature = call.signature
                recordDuringActivation = (try? String(contentsOfFile: recordPath, encoding: .utf8)) ?? nil
                return .error(BusError(name: "org.freedesktop.NetworkManager.PermissionDenied", message: "Not authorized to control networking."))
            default:
                return .error(BusError(name: "org.freedesktop.NetworkManager.Settings.InvalidConnection", message: "No connection with the UUID was found."))
            }
        }
        let joiner = HotspotJoiner(loop: loop, settings: settings)
        var result: HotspotJoinResult?
        try joiner.join(ssid: SSID("Lamp")!, credential: .wpa2(try WPAPassphrase("sekrit-passphrase")), interface: "lo") { result = $0 }
        run(loop) { result != nil && joiner.join(on: "lo") == nil }

        #expect(calls == ["GetDeviceByIpIface", "Get", "AddAndActivateConnection2", "GetConnectionByUuid"])
        #expect(activationSignature == "a{sa{sv}}ooa{sv}")
        #expect(recordDuringActivation?.hasPrefix("interface=lo\nprofile_uuid=") == true, "recorded before the profile was added")
        #expect(recordDuringActivation?.contains("sekrit") == false)
        guard case .failed(let reason)? = result else {
            Issue.record("\(String(describing: result))")
            return
        }
        #expect(reason.contains("org.freedesktop.NetworkManager.network-control"))
        #expect(reason.contains("org.freedesktop.NetworkManager.settings.modify.system"))
        #expect(!reason.contains("sekrit"))
        #expect(joiner.join(on: "lo") == nil)
        #expect(!FileManager.default.fileExists(atPath: recordPath), "nothing left to undo: the record goes")
        withExtendedLifetime(standIn) {}
    }

    @Test("a second join on the interface while one holds it is refused, saying why")
    func oneAtATime() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let standIn = try BusConnection(address: bus.address, loop: loop)
        try standIn.requestName("org.freedesktop.NetworkManager")
        try standIn.serve(path: "/", subtree: true) { _, _ in .deferred }
        let joiner = HotspotJoiner(loop: loop, settings: settings)
        var result: HotspotJoinResult?
        try joiner.join(ssid: SSID("Lamp")!, credential: .open, interface: "lo") { result = $0 }
        let error = #expect(throws: HotspotJoinError.self) {
            try joiner.join(ssid: SSID("Other")!, credential: .open, interface: "lo") { _ in }
        }
        #expect(error == .alreadyJoined(interface: "lo"))
        #expect(error?.description == "lo is already joining or joined to a hotspot")
        run(loop) { result != nil && joiner.join(on: "lo") == nil }
        withExtendedLifetime(standIn) {}
    }
}

/// The cleanup's uplink step against a stand-in that disposes of the uplink's
/// first activation (as NetworkManager does when it fails): seen as gone, and
/// activated once more, rather than waited for until the bound.
@Suite("NetworkManager join cleanup", .serialized)
struct NetworkManagerJoinCleanupTests {
    @Test("an uplink activation NetworkManager disposed of is activated again; then restored")
    func disposedUplinkActivation() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop(pingsWatchdog: false)
        let standIn = try BusConnection(address: bus.address, loop: loop)
        try standIn.requestName("org.freedesktop.NetworkManager")
        let uplink = "5e1f6a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"
        var activations = 0
        try standIn.serve(path: "/", subtree: true) { call, connection in
            let reply = connection.reply(to: call)!
            let notFound = BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "gone")
            switch call.member ?? "" {
            case "GetConnectionByUuid":
                let uuid = (try? call.readString()) ?? ""
                return uuid == uplink ? .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/Settings/1"))
                    : .error(BusError(name: "org.freedesktop.NetworkManager.Settings.InvalidConnection", message: "none"))
            case "GetDeviceByIpIface": return .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/Devices/1"))
            case "ActivateConnection":
                activations += 1
                return .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/ActiveConnection/\(activations)"))
            case "Get":
                _ = try? call.readString()
                let property = (try? call.readString()) ?? ""
                if property == "ActiveConnection" { return .reply(reply.append(variant: .objectPath("/"))) }
                // The first activation failed and is gone; the second is the uplink, activated.
                guard call.path == "/org/freedesktop/NetworkManager/ActiveConnection/2" else { return .error(notFound) }
                return .reply(property == "Uuid" ? reply.append(variant: .string(uplink)) : reply.append(variant: .uint32(2)))
            default:
                return .error(notFound)
            }
        }
        let client = NetworkManagerClient(connection: try BusConnection(address: bus.address, loop: loop), timeout: .seconds(5))
        let record = NetworkManagerJoinRecord(interface: "lo", profileUUID: NetworkManagerJoinRecord.newUUID(), uplinkUUID: uplink)
        var outcome: NetworkManagerJoinCleanup.Outcome?
        let cleanup = NetworkManagerJoinCleanup(client: client, record: record, scheduler: loop, uplinkWait: .seconds(3))
        cleanup.run { outcome = $0 }
        for _ in 0..<100 where outcome == nil { _ = loop.runOnce(timeout: .seconds(1)) }
        #expect(outcome == .restored)
        #expect(activations == 2)
        withExtendedLifetime((standIn, client, cleanup)) {}
    }

    /// Runs a cleanup against a stand-in whose join profile is `profile` (nil: already gone)
    /// and which answers Delete and ActivateConnection as given; `deleteRemoves`: a refused
    /// Delete still removes the profile (NetworkManager removing it itself meanwhile).
    private func cleanup(profile: String?, delete: BusError?, deleteRemoves: Bool = false,
                         activate: BusError) throws -> NetworkManagerJoinCleanup.Outcome? {
        var profile = profile
        let bus = try PrivateBus()
        let loop = try EventLoop(pingsWatchdog: false)
        let standIn = try BusConnection(address: bus.address, loop: loop)
        try standIn.requestName("org.freedesktop.NetworkManager")
        let uplink = "5e1f6a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"
        let joinProfile = NetworkManagerJoinRecord.newUUID()
        try standIn.serve(path: "/", subtree: true) { call, connection in
            let reply = connection.reply(to: call)!
            let none = BusError(name: "org.freedesktop.NetworkManager.Settings.InvalidConnection", message: "none")
            switch call.member ?? "" {
            case "GetConnectionByUuid":
                let uuid = (try? call.readString()) ?? ""
                if uuid == uplink { return .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/Settings/1")) }
                guard uuid == joinProfile, let profile else { return .error(none) }
                return .reply(reply.append(objectPath: profile))
            case "Delete":
                if deleteRemoves { profile = nil }
                return delete.map { .error($0) } ?? .reply(reply)
            case "GetDeviceByIpIface": return .reply(reply.append(objectPath: "/org/freedesktop/NetworkManager/Devices/1"))
            case "Get": return .reply(reply.append(variant: .objectPath("/")))
            case "ActivateConnection": return .error(activate)
            default: return .error(BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: "gone"))
            }
        }
        let client = NetworkManagerClient(connection: try BusConnection(address: bus.address, loop: loop), timeout: .seconds(5))
        let record = NetworkManagerJoinRecord(interface: "lo", profileUUID: joinProfile, uplinkUUID: uplink)
        var outcome: NetworkManagerJoinCleanup.Outcome?
        let cleanup = NetworkManagerJoinCleanup(client: client, record: record, scheduler: loop, uplinkWait: .seconds(3))
        cleanup.run { outcome = $0 }
        for _ in 0..<100 where outcome == nil { _ = loop.runOnce(timeout: .seconds(1)) }
        withExtendedLifetime((standIn, client, cleanup)) {}
        return outcome
    }

    @Test("the profile gone and the uplink refused: nothing of the join is left, so not a failure to retry")
    func uplinkRefusedAfterTheProfileWent() throws {
        let refused = BusError(name: "org.freedesktop.NetworkManager.ConnectionNotAvailable", message: "not available now")
        let outcome = try cleanup(profile: "/org/freedesktop/NetworkManager/Settings/7", delete: nil, activate: refused)
        guard case .uplinkNotBack(let reason)? = outcome else {
            Issue.record("\(String(describing: outcome))")
            return
        }
        #expect(reason.hasPrefix("cannot activate the uplink again: NetworkManager refused ActivateConnection"))
        // The same when NetworkManager disposed of the volatile profile itself (the hotspot went away).
        guard case .uplinkNotBack? = try cleanup(profile: nil, delete: nil, activate: refused) else {
            Issue.record("a profile already gone is not a failure")
            return
        }
    }

    @Test("the profile could not be deleted: a failure, so the record is kept for the next start")
    func profileNotDeleted() throws {
        let refused = BusError(name: "org.freedesktop.NetworkManager.Settings.Failed", message: "busy")
        let outcome = try cleanup(profile: "/org/freedesktop/NetworkManager/Settings/7", delete: refused,
                                  activate: BusError(name: "org.freedesktop.DBus.Error.Failed", message: "not reached"))
        guard case .failed(let reason)? = outcome else {
            Issue.record("\(String(describing: outcome))")
            return
        }
        #expect(reason.hasPrefix("cannot delete the join's profile"))
    }

    @Test("Delete refused because NetworkManager removed the profile meanwhile: gone is gone, the uplink comes next")
    func profileRemovedUnderTheDelete() throws {
        // What NetworkManager 1.42 answered in the lab after the join's activation failed.
        let raced = BusError(name: "org.freedesktop.NetworkManager.Settings.Failed",
                             message: "Error checking authorization: connection was deleted")
        let outcome = try cleanup(profile: "/org/freedesktop/NetworkManager/Settings/7", delete: raced, deleteRemoves: true,
                                  activate: BusError(name: "org.freedesktop.NetworkManager.ConnectionNotAvailable", message: "no"))
        guard case .uplinkNotBack(let reason)? = outcome else {
            Issue.record("\(String(describing: outcome))")
            return
        }
        #expect(reason.hasPrefix("cannot activate the uplink again"), "the cleanup went on to the uplink")
    }
}
