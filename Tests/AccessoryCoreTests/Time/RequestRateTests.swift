import Testing
@testable import AccessoryCore

/// The per-app bound on how fast an app may ask, on a manual clock.
@Suite struct RequestRateTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aBurstThenOneRequestPerSixtiethOfAMinute() {
        var rate = RequestRate(perMinute: 60, burst: 3)
        let burst = (0..<3).map { _ in rate.take("acme", at: Self.start) }
        #expect(burst == Array(repeating: .allowed, count: 3))
        let fourth = rate.take("acme", at: Self.start)
        #expect(fourth == .refused(retryAfter: .seconds(1)))
        // Half a second later: half a request earned, the next in half a second.
        let half = rate.take("acme", at: Self.start.advanced(by: .milliseconds(500)))
        #expect(half == .refused(retryAfter: .milliseconds(500)))
        let second = rate.take("acme", at: Self.start.advanced(by: .seconds(1)))
        let secondAgain = rate.take("acme", at: Self.start.advanced(by: .seconds(1)))
        #expect(second == .allowed && secondAgain != .allowed)
    }

    @Test func eachAppHasItsOwnBucket() {
        var rate = RequestRate(perMinute: 60, burst: 1)
        let answers = [rate.take("acme", at: Self.start), rate.take("acme", at: Self.start), rate.take("globex", at: Self.start)]
        #expect(answers[0] == .allowed && answers[1] != .allowed && answers[2] == .allowed)
    }

    /// Asking every millisecond loses no refill: 35,000 asks in 35 s earn 34 more.
    @Test func aFloodGetsTheBurstAndTheRateAndNoMore() {
        var rate = RequestRate(perMinute: 60, burst: 20)
        var allowed = 0
        for step in 0..<35_000 {
            if rate.take("flood", at: Self.start.advanced(by: .milliseconds(Int64(step)))) == .allowed { allowed += 1 }
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
