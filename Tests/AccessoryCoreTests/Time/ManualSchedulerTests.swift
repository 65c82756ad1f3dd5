import Testing
@testable import AccessoryCore

/// The tests' scheduler keeps the loop's promises: nothing runs from inside
/// `at`, handlers run at their own instant in due order, a cancelled one
/// never runs, and what a handler arms for an instant already passed runs
/// in the same advance.
@Suite struct ManualSchedulerTests {
    @Test func handlersRunAtTheirOwnInstantInDueOrder() {
        let scheduler = ManualScheduler()
        var ran: [String] = []
        scheduler.at(.zero.advanced(by: .seconds(3))) { ran.append("3 s at \(scheduler.now)") }
        scheduler.at(.zero.advanced(by: .seconds(1))) { ran.append("1 s at \(scheduler.now)") }
        let cancelled = scheduler.at(.zero.advanced(by: .seconds(2))) { ran.append("cancelled") }
        scheduler.at(scheduler.now) { ran.append("now at \(scheduler.now)") }
        #expect(ran.isEmpty, "nothing runs from inside at")
        scheduler.cancel(cancelled)
        scheduler.advance(by: .seconds(2))
        #expect(ran == ["now at 0.000s", "1 s at 1.000s"])
        #expect(scheduler.now == .zero.advanced(by: .seconds(2)))
        #expect(scheduler.pending == 1)
        #expect(scheduler.nextDeadline == .zero.advanced(by: .seconds(3)))
        scheduler.advance(by: .seconds(10))
        #expect(ran.last == "3 s at 3.000s")
        #expect(scheduler.pending == 0 && scheduler.nextDeadline == nil)
    }

    @Test func whatAHandlerArmsOnTheWayRunsInTheSameAdvance() {
        let scheduler = ManualScheduler()
        var ran: [MonotonicInstant] = []
        func tick() {
            ran.append(scheduler.now)
            if ran.count < 4 { scheduler.at(scheduler.now.advanced(by: .seconds(1)), tick) }
        }
        scheduler.at(scheduler.now.advanced(by: .seconds(1)), tick)
        scheduler.advance(by: .seconds(10))
        #expect(ran == (1...4).map { MonotonicInstant.zero.advanced(by: .seconds($0)) })
        #expect(scheduler.now == .zero.advanced(by: .seconds(10)))
    }

    @Test func runDueRunsWhatIsDueWithoutMovingTime() {
        let scheduler = ManualScheduler(ManualClock(.zero.advanced(by: .seconds(5))))
        var ran = 0
        scheduler.at(.zero) { ran += 1 }
        scheduler.at(scheduler.now.advanced(by: .nanoseconds(1))) { ran += 10 }
        scheduler.runDue()
        #expect(ran == 1)
        #expect(scheduler.now == .zero.advanced(by: .seconds(5)))
    }
}
