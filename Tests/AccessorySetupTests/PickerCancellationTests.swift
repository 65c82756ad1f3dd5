import AccessoryPlatform
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

    static let denied = AccessorySetupError(.userCancelled, reason: .message("denied by accessoryctl (uid 0)"))
    static let withdrawn = AccessorySetupError(.userCancelled, reason: .message(FakeAgent.withdrawn))

    /// The abandoned picker's dismissal (it had timed out) reaches the session
    /// while the next picker is shown; that one still gets its own outcome.
    func expectTheNextPickerGetsItsOwnOutcome(_ app: inout PickerUnderWay, _ agent: FakeAgent) async throws {
        let second = app.show()
        #expect(try await app.next() == AccessoryEvent(.pickerDidDismiss, error: AccessorySetupError(.discoveryTimeout)))
        #expect(try await app.next().eventType == .pickerDidPresent)
        agent.emit("PickerDidDismiss") { $0.append("userCancelled").append("denied by accessoryctl (uid 0)") }
        await #expect(throws: Self.denied) { try await second.value }
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker", "ShowPicker"])
    }

    @Test func cancellingAnOpenPickersTaskReturnsAtOnceAndWithdrawsThePicker() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.stayOpen, .dismiss(error: "org.accessoryagent.Error.userCancelled", message: "denied by accessoryctl (uid 0)")])
        var app = try await PickerUnderWay(busAddress: bus.address)
        let picker = try await app.showAndWaitUntilPresented()

        picker.cancel()

        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await picker.value }
        // The agent withdraws it: an event, and nobody's outcome.
        #expect(try await app.next() == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        // The next picker gets its own outcome.
        await #expect(throws: Self.denied) { try await app.show().value }
        // Not Invalidate: the session lives on.
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker", "ShowPicker"])
        app.session.invalidate()
    }

    @Test func dismissPickerEndsTheWaitingShowPickerWithUserCancelled() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        var app = try await PickerUnderWay(busAddress: bus.address)
        let picker = try await app.showAndWaitUntilPresented()

        try await app.session.dismissPicker()

        await #expect(throws: Self.withdrawn) { try await picker.value }
        #expect(try await app.next() == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        #expect(agent.calls.map { $0.prefix { $0 != " " } } == ["Activate", "ShowPicker", "DismissPicker"])
        app.session.invalidate()
    }

    @Test func theAbandonedPickersDismissalDoesNotEndTheNextOne() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.stayOpen, .dismissPreviousThenStayOpen(error: "discoveryTimeout", message: "")],
            withdrawal: .alreadyEnded)
        var app = try await PickerUnderWay(busAddress: bus.address)
        let first = try await app.showAndWaitUntilPresented()
        first.cancel()
        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await first.value }

        // The first picker timed out just as the app withdrew it (the withdrawal
        // finds none): its dismissal reaches the session while the second is being shown.
        try await expectTheNextPickerGetsItsOwnOutcome(&app, agent)
        app.session.invalidate()
    }

    @Test func cancellingWhileTheAgentHasNotAnsweredReturnsAtOnce() async throws {
        let agent = try await FakeAgent(
            address: bus.address,
            picker: [.holdReply, .dismissPreviousThenStayOpen(error: "discoveryTimeout", message: "")],
            withdrawal: .alreadyEnded)
        var app = try await PickerUnderWay(busAddress: bus.address)
        #expect(try await app.next().eventType == .activated)
        let first = app.show()
        // The agent has the call and holds its reply (how soon it arrives is the bus's business).
        while agent.calls.count < 2 { try await Task.sleep(for: .milliseconds(10)) }

        first.cancel()

        // While the session's bus thread still waits for the reply.
        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await first.value }
        // The agent took the picker after all, so the session withdraws it once
        // the reply is in (here it had timed out meanwhile): its dismissal is not the next one's.
        agent.releaseHeldReply()
        try await expectTheNextPickerGetsItsOwnOutcome(&app, agent)
        app.session.invalidate()
    }

    @Test func aTaskCancelledBeforeTheCallNeverReachesTheAgent() async throws {
        let agent = try await FakeAgent(address: bus.address, picker: [.stayOpen])
        let session = AccessorySession(busAddress: bus.address)
        try await session.activate()

        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await session.showPicker(for: [PickerUnderWay.item])
        }.result

        #expect(throws: AccessorySetupError.pickerTaskCancelled) { try result.get() }
        // A call made after the cancelled one shows the cancelled one made none.
        try await session.finishPickerDiscovery()
        #expect(agent.calls == ["Activate", "FinishPickerDiscovery"])
        session.invalidate()
    }
}
