import Testing
@testable import AccessoryCore

/// A picker's discovery runs for its timeout and no longer; the core says
/// when, and acts only once the clock gets there.
@Suite struct DiscoveryDeadlineTests {
    typealias World = AuthorizationWorld

    @Test func theNamedTimeoutIsTheNextDeadline() throws {
        var w = World()
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
        try w.show(settings: PickerDisplaySettings(discoveryTimeout: .medium))
        #expect(w.core.nextDeadline(registry: w.registry) == MonotonicInstant.zero.advanced(by: .seconds(120)))
    }

    @Test func nothingFoundByTheDeadlineEndsWithDiscoveryTimeoutAndNotBefore() throws {
        var w = World()
        try w.show(settings: PickerDisplaySettings(discoveryTimeout: .seconds(30)))
        w.clearNotices()
        w.advance(by: .seconds(29))
        #expect(w.notices.isEmpty && w.core.requests[1] != nil)
        w.runToDeadline()
        #expect(w.notices == ["session 1 pickerDidDismiss discoveryTimeout", "agent requestEnded 1 timed out"])
        #expect(w.log.last?.event == .requestTimedOut)
        #expect(w.log.last?.metadata["timeout"] == "30")
        #expect(w.core.requests.isEmpty && w.index.count == 0)
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
    }

    @Test func candidatesFoundByTheDeadlineStayForTheDecision() throws {
        var w = World()
        try w.show(settings: PickerDisplaySettings(discoveryTimeout: .short))
        w.hear(12)
        w.clearNotices()
        w.advance(by: .seconds(30))
        #expect(w.notices.isEmpty)
        #expect(w.core.requests[1]?.discovering == false)
        #expect(w.core.requests[1]?.discoveryDeadline == nil)
        #expect(w.index.count == 0)
        try w.approve(1)
        #expect(w.core.grants.all.count == 1)
    }

    @Test func anUnboundedPickerAndAMigrationHaveNoDeadline() throws {
        var w = World()
        try w.show(settings: PickerDisplaySettings(discoveryTimeout: .unbounded))
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
        w.advance(by: .seconds(86_400))
        #expect(w.core.requests[1]?.discovering == true)
    }

    @Test func eachRequestRunsOutOnItsOwnTimeout() throws {
        var w = World()
        try w.show(session: 1, settings: PickerDisplaySettings(discoveryTimeout: .seconds(10)))
        try w.show(session: 2, World.globex, items: [PickerDisplayItem(name: "Thermo", descriptor: World.thermometer)],
                   settings: PickerDisplaySettings(discoveryTimeout: .seconds(20)))
        w.runToDeadline()
        #expect(w.core.requests.open.keys.sorted() == [2])
        #expect(w.core.nextDeadline(registry: w.registry) == MonotonicInstant.zero.advanced(by: .seconds(20)))
        w.runToDeadline()
        #expect(w.core.requests.isEmpty)
    }
}
