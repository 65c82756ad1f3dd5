import Testing
@testable import AccessorySetup

/// Where the picker tests start: a session activated on the test's bus, its
/// events followed, and `show()` to ask for the porch lamp in a task of its
/// own, which a test then cancels, withdraws or lets the agent decide.
struct PickerUnderWay {
    static let item = PickerDisplayItem(name: "Porch lamp", descriptor: AccessorySessionTests.lampDescriptor)

    let session: AccessorySession
    private var events: AsyncStream<AccessoryEvent>.Iterator

    init(busAddress: String) async throws {
        session = AccessorySession(busAddress: busAddress)
        events = session.events.makeAsyncIterator()
        try await session.activate()
    }

    mutating func next() async throws -> AccessoryEvent {
        try #require(await events.next())
    }

    func show() -> Task<Void, any Error> {
        Task { [session] in try await session.showPicker(for: [Self.item]) }
    }

    /// `show()`, once `activated` and then `pickerDidPresent` have come.
    mutating func showAndWaitUntilPresented() async throws -> Task<Void, any Error> {
        let picker = show()
        #expect(try await next().eventType == .activated)
        #expect(try await next().eventType == .pickerDidPresent)
        return picker
    }
}
