import Foundation
import Testing
import TestSupport
@testable import AccessorySetup

/// accessory-example run as an app would be, against `FakeAgent` on a private bus.
@Suite(.timeLimit(.minutes(1)))
struct ExampleAppTests {
    static var example: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("accessory-example").path
    }

    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    /// Runs the example to its end; the fake agent answers from its own thread meanwhile.
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        #expect(FileManager.default.isExecutableFile(atPath: Self.example), "build accessory-example first")
        let (process, out, err) = try bus.start([Self.example] + arguments)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    @Test func printsThePickedAccessoryAndEveryEventBeforeIt() async throws {
        _ = try await FakeAgent(
            address: bus.address, accessories: [AccessorySessionTests.lamp], picker: [.pick(AccessorySessionTests.sensor)])

        let result = try run(["--bus-address", bus.address, "--bluetooth-service", "180F", "--name-substring", "Lamp",
                              "--wifi-ssid-prefix", "ACME-"])

        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: "\n") == [
            "activated: 1 accessory",
            "  accessory 00000000000000a1 \"Porch Lamp\" authorized bluetooth=00:AA:01:01:00:01/random ssid=\"Lamp\\x00\\xff\" present=yes rssi=-52",
            "event: activated",
            "event: pickerDidPresent",
            "event: accessoryDiscovered candidate=1 \"Lab Lamp\" 00:AA:01:01:00:02/random rssi=-48",
            "event: accessoryAdded 00000000000000b2 \"Lab Sensor\" awaitingAuthorization",
            "event: pickerDidDismiss",
            "picked: accessory 00000000000000b2 \"Lab Sensor\" awaitingAuthorization ssid=\"ACME-1234\"",
        ])
    }

    @Test func aDeniedPickerExitsWithTheError() async throws {
        _ = try await FakeAgent(address: bus.address, picker: [.dismiss(error: "userCancelled", message: "denied by accessoryctl (uid 0)")])

        let result = try run(["--bus-address", bus.address, "--wifi-ssid-prefix", "ACME-"])

        #expect(result.status == 1)
        #expect(result.out.contains("event: pickerDidDismiss error=userCancelled (700): denied by accessoryctl (uid 0)\n"))
        #expect(result.err == "accessory-example: the picker ended without an accessory: userCancelled (700): denied by accessoryctl (uid 0)\n")
    }

    @Test func withNothingToLookForItListsWhatTheAppHas() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [AccessorySessionTests.lamp])

        let result = try run(["--bus-address", bus.address])

        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("activated: 1 accessory\n  accessory 00000000000000a1 \"Porch Lamp\""))
        #expect(agent.calls.filter { $0.hasPrefix("ShowPicker") }.isEmpty)
    }

    @Test func withoutAnAgentItExitsWithTheError() throws {
        let result = try run(["--bus-address", bus.address, "--wifi-ssid-prefix", "ACME-"])
        #expect(result.status == 1)
        #expect(result.err.contains("cannot activate the session: unknown (1): org.freedesktop.DBus.Error.ServiceUnknown"))
    }

    @Test func followPrintsPresenceAndAdvertisementsUntilTheSessionEnds() async throws {
        let agent = try await FakeAgent(address: bus.address, accessories: [AccessorySessionTests.lamp])
        let (process, out, err) = try bus.start([Self.example, "--bus-address", bus.address, "--follow", "600"])
        // Once the agent answered Activate, what it sends is the session's.
        while !agent.calls.contains("Activate") { try await Task.sleep(for: .milliseconds(10)) }
        let lamp = "/org/accessoryagent/accessory/00000000000000a1"

        agent.emit("PropertiesChanged", path: lamp, interface: "org.freedesktop.DBus.Properties") {
            $0.append("org.accessoryagent.Accessory1")
            $0.container("a", "{sv}") { array in array.container("e", "sv") { $0.append("Present").append(variant: .bool(false)) } }
            $0.append(strings: [])
        }
        agent.emit("Advertisement", path: lamp, interface: "org.accessoryagent.Accessory1") {
            $0.append(Int32(-47)).append(bytes: [0x02, 0x01, 0x06])
        }
        agent.emit("Invalidated")

        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lines = output.split(separator: "\n")
        #expect(lines.dropFirst(2).first == "following for 600 s")
        // Two streams, read side by side: their lines may come in either order.
        #expect(Set(lines.dropFirst(3)) == [
            "presence: 00000000000000a1 absent",
            "advertisement: 00000000000000a1 rssi=-47 data=020106",
        ])
        #expect(errors == "accessory-example: the session ended while following\n")
    }

    @Test(arguments: [["--bluetooth-service", "not-a-uuid"], ["--name-substring", "Lamp"], ["--bus-address"], ["--frobnicate"],
                      ["--follow", "soon"], ["--follow", "10", "--join"], ["--observe", "maybe"], ["--observe", "yes", "--woken"]])
    func aBadCommandLineExitsWithUsage(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.err.contains("usage: accessory-example"))
    }

    @Test func helpPrintsUsage() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("usage: accessory-example"))
    }
}
