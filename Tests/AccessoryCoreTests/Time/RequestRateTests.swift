import Testing
@testable import AccessoryCore

/// The per-app bound on how fast an app may ask, on a manual clock.
@Suite struct RequestRateTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aBurstThenOneRequestPerSixtiethOfAMinute() {
        var rate = RequestRate(perMinute: 60, burst: 3)
        for _ in 0..<3 { #expect(rate.take("acme", at: Self.start) == .allowed) }
        #expect(rate.take("acme", at: Self.start) == .refused(retryAfter: .seconds(1)))
        // Half a second later: half a request earned, the next in half a second.
        let half = Self.start.advanced(by: .milliseconds(500))
        #expect(rate.take("acme", at: half) == .refused(retryAfter: .milliseconds(500)))
        #expect(rate.take("acme", at: Self.start.advanced(by: .seconds(1))) == .allowed)
        #expect(rate.take("acme", at: Self.start.advanced(by: .seconds(1))) != .allowed)
    }

    @Test func eachAppHasItsOwnBucket() {
        var rate = RequestRate(perMinute: 60, burst: 1)
        #expect(rate.take("acme", at: Self.start) == .allowed)
        #expect(rate.take("acme", at: Self.start) != .allowed)
        #expect(rate.take("globex", at: Self.start) == .allowed)
    }

    /// Asking every millisecond loses no refill: 35,000 asks in 35 s earn 35 more.
    @Test func aFloodGetsTheBurstAndTheRateAndNoMore() {
        var rate = RequestRate(perMinute: 60, burst: 20)
        var allowed = 0
        for step in 0..<35_000 where rate.take("flood", at: Self.start.advanced(by: .milliseconds(Int64(step)))) == .allowed {
            allowed += 1
        }
        #expect(allowed == 20 + 34)
    }

    @Test func idleAppsAreForgottenOnceFull() {
        var rate = RequestRate(perMinute: 60, burst: 2)
        _ = rate.take("acme", at: Self.start)
        rate.forgetIdle(at: Self.start.advanced(by: .seconds(1)))
        #expect(rate.remembered == 1)
        rate.forgetIdle(at: Self.start.advanced(by: .seconds(3)))
        #expect(rate.remembered == 0)
    }
}
