import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Logging
import Testing
@testable import AccessoryDaemon

/// `--replay FILE --serve`'s input, paced by a scheduler: the capture is fed
/// through the ingest by timers, other timed work runs meanwhile, and a
/// looping capture starts over. On a manual scheduler, so the recorded gaps
/// pass in microseconds. Counts and order only.
@Suite struct CaptureBluetoothInputTests {
    let logger = Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }

    /// Moves time to each next deadline until `done`, at most `limit` times (a bound, not a timing).
    func run(_ scheduler: ManualScheduler, until done: () -> Bool, limit: Int = 600) {
        for _ in 0..<limit where !done() {
            guard let next = scheduler.nextDeadline else { return }
            scheduler.advance(to: next)
        }
    }

    func input(speed: BtsnoopReplay.Speed, repeats: Bool, scheduler: ManualScheduler) throws
        -> (CaptureBluetoothInput, AdvertisingReportIngest, () -> [String]) {
        let pipeline = DiscoveryPipeline(clock: scheduler)
        var lines: [String] = []
        pipeline.onSighting { lines.append(MonitorLine.format($0)) }
        let ingest = AdvertisingReportIngest { pipeline.record($0) }
        let input = try CaptureBluetoothInput(
            capture: ReplayTests.capture("lab-passive-scan.btsnoop"), path: "lab-passive-scan.btsnoop",
            speed: speed, repeats: repeats, ingest: ingest, scheduler: scheduler, logger: logger)
        return (input, ingest, { lines })
    }

    @Test func maxSpeedFeedsTheWholeCaptureInOneTurnAndStops() throws {
        let scheduler = ManualScheduler()
        let (input, ingest, lines) = try input(speed: .max, repeats: false, scheduler: scheduler)
        input.start()
        #expect(ingest.advertisementCount == 0, "nothing is fed before the scheduler's next turn")
        scheduler.runDue()
        #expect(input.rounds == 1)
        #expect(ingest.advertisementCount == 2)
        #expect(lines() == (try ReplayTests.monitorLines("lab-passive-scan.btsnoop")))
        // Without --replay-loop no round follows.
        #expect(scheduler.pending == 0)
        scheduler.advance(by: .seconds(3600))
        #expect(input.rounds == 1)
        #expect(ingest.advertisementCount == 2)
    }

    @Test func aLoopingCaptureStartsOverAndLeavesTheSchedulerFree() throws {
        let scheduler = ManualScheduler()
        let (input, ingest, _) = try input(speed: .recorded, repeats: true, scheduler: scheduler)
        input.start()
        // Other timed work runs while the capture is paced: between its two
        // advertisements (recorded 1.6 s apart), not only between rounds, as
        // it could not if the replay slept in a handler.
        var ranBetweenAdvertisements = false
        func tick() {
            if ingest.advertisementCount % 2 == 1 { ranBetweenAdvertisements = true }
            scheduler.at(scheduler.now.advanced(by: .milliseconds(250)), tick)
        }
        tick()
        run(scheduler, until: { input.rounds == 2 })
        #expect(input.rounds == 2)
        #expect(ingest.advertisementCount == 4)
        #expect(ranBetweenAdvertisements)
        input.stop()
        let advertisements = ingest.advertisementCount
        scheduler.advance(by: .seconds(3600))
        #expect(ingest.advertisementCount == advertisements, "stopped means stopped")
    }
}
