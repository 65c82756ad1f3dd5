import AccessoryPlatform
import Testing
import TestSupport
@testable import AccessorySetup

/// `AccessorySession.observePresence(of:)` sends `Session1.ObservePresence`
/// with the accessory's path and the wish, over a real dbus-daemon.
@Suite(.timeLimit(.minutes(1)))
struct ObservePresenceClientTests {
    @Test func askingAndWithdrawingGoOverTheBus() async throws {
        let bus = try PrivateBus()
        let agent = try await FakeAgent(address: bus.address, accessories: [AccessorySessionTests.lamp])
        let session = AccessorySession(busAddress: bus.address)
        let lamp = try #require(try await session.activate().first)
        try await session.observePresence(of: lamp)
        try await session.observePresence(of: lamp, false)
        #expect(agent.calls.suffix(2) == [
            "ObservePresence /org/accessoryagent/accessory/00000000000000a1 true",
            "ObservePresence /org/accessoryagent/accessory/00000000000000a1 false",
        ])
        session.invalidate()
    }
}
