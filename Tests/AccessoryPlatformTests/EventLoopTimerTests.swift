import AccessoryCore
import CSystemd
import Glibc
import Testing
@testable import AccessoryPlatform

/// The loop's timed work against the real sd-event loop, on the test's own
/// thread. Deadlines are put in the past on purpose, as a board that slept
/// through them finds them on resume: they are due at once, so these assert
/// order and counts, never how long anything took.
@Suite(.serialized) struct EventLoopTimerTests {
    let clock = SystemMonotonicClock()

    /// An instant `duration` before now, as a deadline that passed while the board slept.
    func ago(_ duration: Duration) -> MonotonicInstant { clock.now.advanced(by: .zero - duration) }

    /// Runs iterations until `done` or `limit` iterations; a bound, not a timing.
    func run(_ loop: EventLoop, until done: () -> Bool, limit: Int = 100) {
        for _ in 0..<limit where !done() { _ = loop.runOnce(timeout: .milliseconds(100)) }
    }

    @Test func oneTimerSourceOnBootTimeServesEveryPendingDeadline() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        #expect(loop.timerClock == CLOCK_BOOTTIME)
        #expect(loop.timerArmedAt == nil, "off with nothing to wait for")

        let start = clock.now
        var tokens: [TimerToken] = []
        for minutes in (1...100).reversed() {
            tokens.append(loop.at(start.advanced(by: .seconds(60 * minutes))) {})
            tokens.append(loop.at(loop.now.advanced(by: .seconds(86_400 + minutes))) {})
        }
        let soonest = loop.at(start.advanced(by: .seconds(30))) {}
        #expect(loop.pendingTimers == 201)
        #expect(loop.timerClock == CLOCK_BOOTTIME, "still the one source")
        #expect(loop.timerArmedAt == start.advanced(by: .seconds(30)).bootTimeMicrosecondsRoundedUp)

        // Cancelling the earliest moves the one timer to the next deadline.
        loop.cancel(soonest)
        #expect(loop.timerArmedAt == start.advanced(by: .seconds(60)).bootTimeMicrosecondsRoundedUp)

        for token in tokens { loop.cancel(token) }
        #expect(loop.pendingTimers == 0)
        #expect(loop.timerArmedAt == nil, "off again once nothing waits")
    }

    @Test func theLoopsInstantsAreSdEventsBootTimeInMicroseconds() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let before = clock.now
        _ = loop.runOnce(timeout: .zero)
        var eventNow: UInt64 = 0
        #expect(sd_event_now(loop.event, CLOCK_BOOTTIME, &eventNow) >= 0)
        let after = clock.now
        #expect(before.nanoseconds / 1_000 <= eventNow)
        #expect(eventNow <= after.bootTimeMicrosecondsRoundedUp)
    }

    @Test func microsecondsRoundUpAndNeverOverflow() {
        #expect(MonotonicInstant(nanoseconds: 0).bootTimeMicrosecondsRoundedUp == 0)
        #expect(MonotonicInstant(nanoseconds: 1_000).bootTimeMicrosecondsRoundedUp == 1)
        #expect(MonotonicInstant(nanoseconds: 1_001).bootTimeMicrosecondsRoundedUp == 2)
        #expect(MonotonicInstant(nanoseconds: .max).bootTimeMicrosecondsRoundedUp == UInt64.max / 1_000 + 1)
    }

    @Test func aFarDeadlineArmsWithoutOverflow() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        // A Duration holds at most Int64.max nanoseconds: about 292 years on.
        let centuries = loop.at(loop.now.advanced(by: .seconds(Int64.max))) {}
        #expect(try #require(loop.timerArmedAt) >= UInt64(Int64.max) / 1_000, "no wrap to a near time")
        loop.at(MonotonicInstant(nanoseconds: .max)) {}
        #expect(loop.pendingTimers == 2)
        loop.cancel(centuries)
        #expect(loop.timerArmedAt == UInt64.max / 1_000 + 1, "the clock's end, still armed")
    }

    @Test func deadlinesPassedDuringASimulatedSuspendAllRunOnTheNextIterationInDueOrder() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        var ran: [String] = []
        // Inserted out of order; the board "slept" through the first three.
        loop.at(ago(.seconds(10))) { ran.append("sweep") }
        loop.at(ago(.seconds(30))) { ran.append("presence") }
        loop.at(loop.now.advanced(by: .seconds(3_600))) { ran.append("an hour on") }
        loop.at(ago(.seconds(20))) { ran.append("approval") }
        #expect(ran.isEmpty, "nothing runs from inside after/at")

        #expect(loop.runOnce(timeout: .seconds(5)))
        #expect(ran == ["presence", "approval", "sweep"], "one iteration, every overdue handler, in due order")
        #expect(loop.pendingTimers == 1)
        #expect(loop.timerClock == CLOCK_BOOTTIME)
        #expect(loop.timerArmedAt != nil, "re-armed for the one left")

        _ = loop.runOnce(timeout: .zero)
        #expect(ran == ["presence", "approval", "sweep"], "none runs twice")
    }

    @Test func handlersRunInDueOrder() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let start = clock.now
        var ran: [Int] = []
        loop.at(start.advanced(by: .milliseconds(3))) { ran.append(3) }
        loop.at(start.advanced(by: .milliseconds(1))) { ran.append(1) }
        loop.at(start.advanced(by: .milliseconds(2))) { ran.append(2) }
        loop.at(start.advanced(by: .milliseconds(2))) { ran.append(22) }
        run(loop, until: { ran.count == 4 })
        #expect(ran == [1, 2, 22, 3])
        #expect(loop.timerArmedAt == nil)
    }

    @Test func aHandlerCancellingAnotherDueOneStopsIt() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        var ran: [String] = []
        var victim: TimerToken?
        loop.at(ago(.seconds(2))) {
            ran.append("first")
            if let victim { loop.cancel(victim) }
        }
        victim = loop.at(ago(.seconds(1))) { ran.append("cancelled") }
        let kept = loop.at(loop.now) { ran.append("kept") }
        run(loop, until: { loop.pendingTimers == 0 })
        #expect(ran == ["first", "kept"])
        loop.cancel(kept)
        #expect(loop.timerArmedAt == nil)
    }

    @Test func aHandlerSchedulingAnotherRunsItOnALaterIteration() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        var ran: [String] = []
        loop.at(ago(.seconds(1))) {
            ran.append("first")
            loop.at(loop.now) { ran.append("second") }
            loop.at(.zero) { ran.append("long overdue") }
        }
        #expect(loop.runOnce(timeout: .seconds(5)))
        #expect(ran == ["first"], "what a handler schedules waits for the next iteration, even when due")
        #expect(loop.pendingTimers == 2)
        #expect(loop.runOnce(timeout: .seconds(5)))
        #expect(ran == ["first", "long overdue", "second"])
        #expect(loop.timerArmedAt == nil)
    }

    @Test func aHandlerReArmingWithZeroDoesNotStarveOtherSources() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var ticks = 0
        var served = false
        var token: TimerToken?
        func tick() {
            ticks += 1
            token = loop.at(loop.now, tick)
        }
        token = loop.at(loop.now, tick)
        run(loop, until: { ticks >= 3 })
        #expect(ticks >= 3, "re-armed from itself, it runs again on later iterations")
        let watch = try loop.watch(fd: fds[0]) { _ in served = true }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        run(loop, until: { served }, limit: 1_000)
        #expect(served, "the descriptor is served while the timer keeps re-arming")
        let ticksWhenServed = ticks
        run(loop, until: { ticks > ticksWhenServed })
        #expect(ticks > ticksWhenServed, "and the timer goes on after it")
        #expect(loop.pendingTimers == 1)
        loop.stopWatching(watch)
        if let token { loop.cancel(token) }
        #expect(loop.timerArmedAt == nil)
    }
}
