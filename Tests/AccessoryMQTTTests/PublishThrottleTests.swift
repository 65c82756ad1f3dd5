import AccessoryCore
import AccessoryMQTT
import Testing

/// The per-accessory rate bound, on a manual clock: on change, at most once per interval, newest wins.
@Suite struct PublishThrottleTests {
    let clock = ManualClock()

    func message(_ payload: String, _ topic: String = "a/presence") -> Publication { Publication(topic: topic, payload: payload) }

    @Test func anAdvertisementEvery100msBecomesOneMessagePerInterval() {
        var throttle = PublishThrottle(minimumInterval: .seconds(10))
        var sentAt: [Duration] = []
        // 30 s of advertisements every 100 ms, the RSSI changing each time.
        for step in 0..<300 {
            if throttle.offer(message("rssi \(-50 - step % 7)"), now: clock.now) != nil { sentAt.append(clock.now.duration(since: .zero)) }
            clock.advance(by: .milliseconds(100))
            for _ in throttle.due(now: clock.now) { sentAt.append(clock.now.duration(since: .zero)) }
        }
        // 300 changes: the first at once, then one at each interval's end.
        #expect(sentAt == [.zero, .seconds(10), .seconds(20), .seconds(30)])
        #expect(throttle.nextDeadline == nil)
    }

    @Test func theSamePayloadIsNotSentAgain() {
        var throttle = PublishThrottle(minimumInterval: .seconds(10))
        #expect(throttle.offer(message("home"), now: clock.now) != nil)
        clock.advance(by: .seconds(60))
        #expect(throttle.offer(message("home"), now: clock.now) == nil)
        #expect(throttle.nextDeadline == nil)
    }

    @Test func aChangeInsideTheIntervalWaitsAndOnlyTheNewestGoes() {
        var throttle = PublishThrottle(minimumInterval: .seconds(10))
        #expect(throttle.offer(message("-50"), now: clock.now) != nil)
        clock.advance(by: .seconds(2))
        #expect(throttle.offer(message("-51"), now: clock.now) == nil)
        clock.advance(by: .seconds(2))
        #expect(throttle.offer(message("-52"), now: clock.now) == nil)
        #expect(throttle.due(now: clock.now).isEmpty)
        clock.advance(to: MonotonicInstant.zero.advanced(by: .seconds(10)))
        #expect(throttle.due(now: clock.now) == [message("-52")])
        #expect(throttle.nextDeadline == nil)
    }

    @Test func goingBackToWhatWasSentCancelsTheWait() {
        var throttle = PublishThrottle(minimumInterval: .seconds(10))
        #expect(throttle.offer(message("-50"), now: clock.now) != nil)
        clock.advance(by: .seconds(1))
        #expect(throttle.offer(message("-51"), now: clock.now) == nil)
        #expect(throttle.offer(message("-50"), now: clock.now) == nil)
        #expect(throttle.nextDeadline == nil)
    }

    @Test func urgentGoesAtOnceAndTopicsAreIndependent() {
        var throttle = PublishThrottle(minimumInterval: .seconds(10))
        #expect(throttle.offer(message("home"), now: clock.now) != nil)
        #expect(throttle.offer(message("x", "b/presence"), now: clock.now) != nil)
        clock.advance(by: .seconds(1))
        #expect(throttle.offer(message("not_home"), now: clock.now, urgent: true) == message("not_home"))
    }
}
