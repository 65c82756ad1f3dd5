import AccessoryCore
import AccessorySystem
import Testing
import TestSupport
@testable import AccessorySetup

/// The library withdrawing a picker from the real accessoryd: once the app
/// gives up, the request is gone for the administrator too, not only for
/// the task that stopped waiting.
@Suite(.timeLimit(.minutes(1)))
struct PickerWithdrawalEndToEndTests {
    let bus: PrivateBus

    init() throws { bus = try PrivateBus() }

    static let item = PickerDisplayItem(name: "Porch lamp", descriptor: AccessorySessionTests.lampDescriptor)
    static let withdrawn = AccessorySetupError(.userCancelled, reason: .message("withdrawn by the app"))
    static let nothingPending = "a(ussasu) 0\n"

    func next(_ events: inout AsyncStream<AccessoryEvent>.Iterator) async throws -> AccessoryEvent {
        try #require(await events.next())
    }

    @Test func cancellingTheTaskAwaitingShowPickerWithdrawsTheRequest() async throws {
        let accessoryd = try await RealAccessoryd(bus: bus)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        let picker = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events).eventType == .activated)
        #expect(try await next(&events).eventType == .pickerDidPresent)
        #expect(try accessoryd.listedRequests() == "a(ussasu) 1 1 \"acme-lights\" \"picker\" 1 \"Porch lamp\" 0\n")

        picker.cancel()

        await #expect(throws: AccessorySetupError.pickerTaskCancelled) { try await picker.value }
        // accessoryd's answer to the withdrawal; by then the administrator has nothing to decide.
        #expect(try await next(&events) == AccessoryEvent(.pickerDidDismiss, error: Self.withdrawn))
        #expect(try accessoryd.listedRequests() == Self.nothingPending)
        #expect(try await !accessoryd.grantsAnything())
        session.invalidate()
    }

    @Test func dismissPickerEndsTheWaitingShowPicker() async throws {
        let accessoryd = try await RealAccessoryd(bus: bus)
        let session = AccessorySession(busAddress: bus.address)
        var events = session.events.makeAsyncIterator()
        try await session.activate()
        #expect(try await next(&events).eventType == .activated)
        await #expect(throws: AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))) {
            try await session.dismissPicker()
        }
        let picker = Task { try await session.showPicker(for: [Self.item]) }
        #expect(try await next(&events).eventType == .pickerDidPresent)

        try await session.dismissPicker()

        await #expect(throws: Self.withdrawn) { try await picker.value }
        #expect(try accessoryd.listedRequests() == Self.nothingPending)
        session.invalidate()
    }
}
