import AccessoryCore
import Testing
@testable import AccessoryDecisions

/// The scan schedule driven by hand: every instant is chosen by the test.
@Suite struct WiFiScanScheduleTests {
    static let configuration = WiFiScanSchedule.Configuration(
        interval: .seconds(10), maximumInterval: .seconds(60), resultsTimeout: .seconds(15),
        busyRadioTimeout: .seconds(45), failuresBeforeFailing: 3)
    let clock = ManualClock(MonotonicInstant(nanoseconds: 1_000_000_000_000))

    func schedule(demand: Bool = true) -> WiFiScanSchedule {
        var schedule = WiFiScanSchedule(configuration: Self.configuration)
        schedule.setDemand(demand)
        return schedule
    }

    @Test func noDemandMeansNoScan() {
        var schedule = schedule(demand: false)
        #expect(schedule.wakeUp == nil)
        #expect(schedule.tick(at: clock.now) == .nothing)
        #expect(schedule.phase == .idle)
    }

    @Test func demandScansAtOnceThenWaitsTheIntervalAfterResults() {
        var schedule = schedule()
        #expect(schedule.wakeUp! <= clock.now)
        #expect(schedule.tick(at: clock.now) == .trigger)
        #expect(schedule.phase == .scanning(deadline: clock.now.advanced(by: .seconds(15))))

        clock.advance(by: .seconds(3))
        let read1 = schedule.resultsReady(at: clock.now)
        #expect(read1)
        #expect(schedule.phase == .idle)
        #expect(schedule.wakeUp == clock.now.advanced(by: .seconds(10)))

        clock.advance(by: .seconds(9))
        #expect(schedule.tick(at: clock.now) == .nothing, "a timer that fires early triggers nothing")
        clock.advance(by: .seconds(1))
        #expect(schedule.tick(at: clock.now) == .trigger)
    }

    @Test func neverTwoScansAtOnce() {
        var schedule = schedule()
        #expect(schedule.tick(at: clock.now) == .trigger)
        clock.advance(by: .seconds(5))
        #expect(schedule.tick(at: clock.now) == .nothing)
        schedule.setDemand(true)
        #expect(schedule.tick(at: clock.now) == .nothing)
    }

    @Test func busyRadioWaitsForTheRunningScanAndCountsItsResults() {
        var schedule = schedule()
        #expect(schedule.tick(at: clock.now) == .trigger)
        schedule.radioBusy(at: clock.now)
        #expect(schedule.phase == .waitingForBusyRadio(deadline: clock.now.advanced(by: .seconds(45))))
        clock.advance(by: .seconds(2))
        let read2 = schedule.resultsReady(at: clock.now)
        #expect(read2, "the other scan's results are read")
        #expect(schedule.consecutiveFailures == 0)
        #expect(schedule.wakeUp == clock.now.advanced(by: .seconds(10)))
    }

    @Test func aLongScanOfSomeoneElseIsWaitedOutBeyondOurOwnTimeout() {
        // The lab's full dual-band scan on a connected interface took 21 s.
        var schedule = schedule()
        _ = schedule.tick(at: clock.now)
        schedule.radioBusy(at: clock.now)
        clock.advance(by: .seconds(21))
        #expect(schedule.tick(at: clock.now) == .nothing, "still waiting for the other scan")
        let read = schedule.resultsReady(at: clock.now)
        #expect(read)
        #expect(schedule.consecutiveFailures == 0)
    }

    @Test func busyRadioThatNeverFinishesReadsTheCacheAndBacksOff() {
        var schedule = schedule()
        _ = schedule.tick(at: clock.now)
        schedule.radioBusy(at: clock.now)
        clock.advance(by: .seconds(44))
        #expect(schedule.tick(at: clock.now) == .nothing)
        clock.advance(by: .seconds(1))
        #expect(schedule.tick(at: clock.now) == .readCacheAfterTimeout)
        #expect(schedule.consecutiveFailures == 1)
        #expect(schedule.wakeUp == clock.now.advanced(by: .seconds(20)))
    }

    @Test func failuresBackOffExponentiallyUpToTheMaximum() {
        var schedule = schedule()
        var delays: [Duration] = []
        for _ in 0..<5 {
            clock.advance(to: schedule.wakeUp!)
            #expect(schedule.tick(at: clock.now) == .trigger)
            schedule.triggerFailed(at: clock.now)
            delays.append(schedule.wakeUp!.duration(since: clock.now))
        }
        #expect(delays == [.seconds(20), .seconds(40), .seconds(60), .seconds(60), .seconds(60)])
        #expect(schedule.isFailing)
    }

    @Test func ourResultsAfterFailuresResetTheBackoff() {
        var schedule = schedule()
        for _ in 0..<3 {
            clock.advance(to: schedule.wakeUp!)
            _ = schedule.tick(at: clock.now)
            schedule.triggerFailed(at: clock.now)
        }
        #expect(schedule.isFailing)
        clock.advance(to: schedule.wakeUp!)
        _ = schedule.tick(at: clock.now)
        _ = schedule.resultsReady(at: clock.now)
        #expect(!schedule.isFailing)
        #expect(schedule.consecutiveFailures == 0)
        #expect(schedule.wakeUp == clock.now.advanced(by: .seconds(10)))
    }

    @Test func someoneElsesScanPostponesOursButDoesNotClearFailures() {
        var schedule = schedule()
        _ = schedule.tick(at: clock.now)
        schedule.triggerFailed(at: clock.now)
        let backedOff = schedule.wakeUp!
        clock.advance(by: .seconds(1))
        let read3 = schedule.resultsReady(at: clock.now)
        #expect(read3, "anyone's results are read while there is demand")
        #expect(schedule.consecutiveFailures == 1)
        #expect(schedule.wakeUp == backedOff, "the backoff still holds")

        var idle = self.schedule()
        _ = idle.tick(at: clock.now)
        _ = idle.resultsReady(at: clock.now)
        clock.advance(by: .seconds(8))
        let read4 = idle.resultsReady(at: clock.now)
        #expect(read4)
        #expect(idle.wakeUp == clock.now.advanced(by: .seconds(10)), "the radio just scanned: ours waits")
    }

    @Test func resultsWithoutDemandAreNotRead() {
        var schedule = schedule(demand: false)
        let read5 = schedule.resultsReady(at: clock.now)
        #expect(!read5)
    }

    @Test func demandDroppedDuringAScanLetsItFinishThenStops() {
        var schedule = schedule()
        _ = schedule.tick(at: clock.now)
        schedule.setDemand(false)
        #expect(schedule.wakeUp != nil, "the running scan's deadline is still watched")
        clock.advance(by: .seconds(2))
        let read6 = schedule.resultsReady(at: clock.now)
        #expect(!read6)
        #expect(schedule.wakeUp == nil)
    }

    @Test func ourAbortedScanIsAFailureSomeoneElsesIsNot() {
        var idle = schedule()
        idle.aborted(at: clock.now)
        #expect(idle.consecutiveFailures == 0)

        var scanning = schedule()
        _ = scanning.tick(at: clock.now)
        scanning.aborted(at: clock.now)
        #expect(scanning.consecutiveFailures == 1)
        #expect(scanning.phase == .idle)
        #expect(scanning.wakeUp == clock.now.advanced(by: .seconds(20)))
    }

    @Test func demandReturningSoonAfterAScanWaitsOutTheInterval() {
        var schedule = schedule()
        _ = schedule.tick(at: clock.now)
        _ = schedule.resultsReady(at: clock.now)
        schedule.setDemand(false)
        #expect(schedule.wakeUp == nil)
        clock.advance(by: .seconds(4))
        schedule.setDemand(true)
        #expect(schedule.wakeUp == clock.now.advanced(by: .seconds(6)))
    }

    @Test func backoffNeverOverflows() {
        let schedule = schedule()
        #expect(schedule.backoff(afterFailures: 0) == .seconds(10))
        #expect(schedule.backoff(afterFailures: 1_000_000) == .seconds(60))
        #expect(schedule.backoff(afterFailures: Int.max) == .seconds(60))
    }
}
