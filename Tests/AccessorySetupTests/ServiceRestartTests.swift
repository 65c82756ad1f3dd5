import Foundation
import Glibc
import Testing
import TestSupport
@testable import AccessorySetup

/// Issue 22: apps ride through a restart of accessoryd (an upgrade, a
/// crash). The real accessoryd on a private bus serves the replayed Lab
/// Sensor; it is stopped with SIGTERM as systemd stops it and started again
/// with the same grants, while the app follows its sensor.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceRestartTests {
    let bus: PrivateBus
    let accessoryd: ServedAccessoryd

    init() throws {
        bus = try PrivateBus()
        accessoryd = try ServedAccessoryd(bus: bus)
    }

    static let sensorDescriptor = DiscoveryDescriptor(
        bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F), bluetoothNameSubstring: "Lab Sensor")

    /// The library: one `serviceRestarted` event, no `invalidated`; the
    /// accessories read again from the new accessoryd; its signals followed
    /// and its methods answered on the new session.
    @Test func theSessionIsActivatedAgainWithOneEvent() async throws {
        try await accessoryd.start()
        try accessoryd.openApprovalWindow()
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        var presence = session.presenceChanges.makeAsyncIterator()
        var advertisements = session.advertisements.makeAsyncIterator()
        try await session.activate()
        try await session.showPicker(for: [PickerDisplayItem(name: "Sensor", descriptor: Self.sensorDescriptor)])
        var before: [AccessoryEvent.EventType] = []
        while let event = await events.next() {
            before.append(event.eventType)
            if event.eventType == .pickerDidDismiss { break }
        }
        #expect(before.first == .activated && before.contains(.accessoryAdded), "\(before)")
        let sensor = try #require(session.accessories.first)
        #expect(await advertisements.next()?.accessory == sensor.id)

        accessoryd.stop()
        // Until it is back, calls say why they cannot be made (once the
        // library has heard it left; before, they fail at the bus).
        let restarting = AccessorySetupError(.invalidRequest, reason: .message(SessionCore.restartingReason))
        var refusal: AccessorySetupError?
        // Without the restart handled, the session ends: `invalidated`.
        while refusal != restarting, refusal?.code != .invalidated {
            do throws(AccessorySetupError) {
                try await session.finishPickerDiscovery()
                refusal = nil
            } catch {
                refusal = error
            }
            if refusal != restarting { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refusal == restarting)
        try await accessoryd.start()

        let restarted = try #require(await events.next())
        #expect(restarted == AccessoryEvent(.serviceRestarted))
        // Read again from the new accessoryd, which has not heard the sensor yet.
        #expect(session.accessories.map(\.id) == [sensor.id])
        #expect(session.accessories.first?.displayName == "Lab Sensor")
        // Its signals reach the session: it hears the sensor again.
        #expect(await presence.next() == AccessoryPresence(accessory: sensor.id, isPresent: true))
        #expect(await advertisements.next()?.accessory == sensor.id)
        // And its methods answer on the new session.
        try await session.renameAccessory(sensor, to: "Porch Sensor")
        let changed = try #require(await events.next())
        #expect(changed.eventType == .accessoryChanged)
        #expect(changed.accessory?.displayName == "Porch Sensor")
        session.invalidate()
        #expect(await events.next()?.eventType == .invalidated)
        #expect(await events.next() == nil)
    }

    /// The model app, `accessory-example --follow`, as a unit runs it: it keeps
    /// following across the restart, says so once, and goes on reading.
    @Test func theExampleAppKeepsFollowing() async throws {
        try await accessoryd.start()
        try accessoryd.openApprovalWindow()
        let (process, out, err) = try bus.start([
            ExampleAppTests.example, "--bus-address", bus.address, "--bluetooth-service", "180F",
            "--name-substring", "Lab Sensor", "--follow", "600",
        ])
        let output = CollectedOutput()
        output.collect(out)
        let errors = CollectedOutput()
        errors.collect(err)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try await output.wait { $0.contains("following for 600 s\n") && $0.contains("advertisement: ") }

        accessoryd.stop()
        try await accessoryd.start()

        // Or until the app gave up, which is the failure this test is about.
        try await output.wait(while: { process.isRunning }) { text in
            guard let restart = text.range(of: "event: serviceRestarted\n") else { return false }
            return text[restart.upperBound...].contains("advertisement: ")
        }
        #expect(process.isRunning, "\(errors.text)")
        let text = output.text
        let after = String(text[try #require(text.range(of: "event: serviceRestarted\n")).upperBound...])
        #expect(after.hasPrefix("  accessory "), "\(text)")
        #expect(after.contains("\"Lab Sensor\" authorized bluetooth=00:AA:01:01:00:01/public"), "\(text)")
        #expect(text.components(separatedBy: "event: serviceRestarted").count == 2, "\(text)")
        #expect(errors.text == "", "\(errors.text)")
    }
}
