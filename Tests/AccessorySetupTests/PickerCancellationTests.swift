import AccessorySystem
import Testing
import TestSupport
@testable import AccessorySetup

/// Cancelling the task that awaits `showPicker`, end to end over a real
/// dbus-daemon against `FakeAgent`: the session stops waiting at once and
/// withdraws the picker (`DismissPicker`), and the abandoned picker's later
/// dismissal, whatever ended it, does not end the next `showPicker`.
@Suite(.timeLimit(.minutes(1)))
struct PickerCancellationTests {
    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    static let item = PickerDisplayItem(name: "Porch lamp", descriptor: AccessorySessionTests.lampDescriptor)
    static let denied = AccessorySetupError(.userCancelled, reason: .message("denied by accessoryctl (uid 0)"))
    static let withdrawn = AccessorySetupError(.userCancelled, reason: .message(FakeAgent.withdrawn))

    func next(_ events: inout AsyncStream<AccessoryEvent>.Iterator) async throws -> AccessoryEvent {
        try #require(await events.next())
    }

    @Test func cancellingAnOpenPickersTaskReturnsAtOnceAndWithdrawsThePicker() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.stayOpen, .dismiss(error: "org.accessoryagent.Error.userCancelled", message: "denied by accessoryctl (uid 0)")])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let picker = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)

        picker.cancel()

        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await picker.value }
        // The agent withdraws it: an event, and nobody's outcome.
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        // The next picker gets its own outcome.
        await #expect(throws: Self.denied) { try await session.showPicker(for: [Self.item]) }
        // Not Invalidate: the session lives on.
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker", "ShowPicker"])
        session.invalidate()
    }

    @Test func dismissPickerEndsTheWaitingShowPickerWithUserCancelled() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let picker = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)

        try await session.dismissPicker()

        await #expect(throws: Self.withdrawn) { try await picker.value }
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker"])
        session.invalidate()
    }

    @Test func theAbandonedPickersDismissalDoesNotEndTheNextOne() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.stayOpen, .dismissPreviousThenStayOpen(error: "discoveryTimeout", message: "")],
            withdrawal: .alreadyEnded)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let first = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)
        first.cancel()
        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await first.value }

        // The first picker timed out just as the app withdrew it (the withdrawal
        // finds none): its dismissal reaches the session while the second is being shown.
        let second = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: AccessorySetupError(.discoveryTimeout)))
        #expect(try await next(&events).eventType == .pickerDidPresent)
        agent.emit("PickerDidDismiss") { $0.append("userCancelled").append("denied by accessoryctl (uid 0)") }

        await #expect(throws: Self.denied) { try await second.value }
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker", "ShowPicker"])
        session.invalidate()
    }

    @Test func cancellingWhileTheAgentHasNotAnsweredReturnsAtOnce() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.holdReply, .dismissPreviousThenStayOpen(error: "discoveryTimeout", message: "")],
            withdrawal: .alreadyEnded)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        let first = Task { try await session.showPicker(for: [Self.item]) }
        // The agent has the call and holds its reply (how soon it arrives is the bus's business).
        while agent.calls.count < 2 { try await Task.sleep(for: .milliseconds(10)) }

        first.cancel()

        // While the session's bus thread still waits for the reply.
        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await first.value }
        // The agent took the picker after all, so the session withdraws it once
        // the reply is in (here it had timed out meanwhile): its dismissal is not the next one's.
        agent.releaseHeldReply()
        let second = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: AccessorySetupError(.discoveryTimeout)))
        #expect(try await next(&events).eventType == .pickerDidPresent)
        agent.emit("PickerDidDismiss") { $0.append("userCancelled").append("denied by accessoryctl (uid 0)") }
        await #expect(throws: Self.denied) { try await second.value }
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker", "ShowPicker"])
        session.invalidate()
    }

    @Test func aTaskCancelledBeforeTheCallNeverReachesTheAgent() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        try await session.activate()

        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await session.showPicker(for: [Self.item])
        }.result

        #expect(throws: AccessorySetupError.pickerTaskCancelled) { try result.get() }
        // A call made after the cancelled one shows the cancelled one made none.
        try await session.finishPickerDiscovery()
        #expect(agent.calls == ["Activate", "FinishPickerDiscovery"])
        session.invalidate()
    }
}
