import AccessoryCore
import AccessoryPlatform
import Logging
import Testing
@testable import AccessoryDaemon

/// `--replay FILE --serve`'s input on the real event loop: the capture is fed
/// through the ingest by the loop's timers, the loop stays free for other
/// work meanwhile, and a looping capture starts over. Counts and order only.
@Suite(.timeLimit(.minutes(1))) struct CaptureBluetoothInputTests {
    let logger = Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }

    /// Runs iterations until `done` or `limit` iterations; a bound, not a timing.
    func run(_ loop: EventLoop, until done: () -> Bool, limit: Int = 600) {
        for _ in 0..<limit where !done() { _ = loop.runOnce(timeout: .milliseconds(100)) }
    }

    func input(speed: BtsnoopReplay.Speed, repeats: Bool, loop: EventLoop) throws -> (CaptureBluetoothInput, AdvertisingReportIngest, () -> [String]) {
        let pipeline = DiscoveryPipeline(clock: ManualClock())
        var lines: [String] = []
        pipeline.onSighting { lines.append(MonitorLine.format($0)) }
        let ingest = AdvertisingReportIngest { pipeline.record($0) }
        let input = try CaptureBluetoothInput(
            capture: ReplayTests.capture("lab-passive-scan.btsnoop"), path: "lab-passive-scan.btsnoop",
            speed: speed, repeats: repeats, ingest: ingest, loop: loop, logger: logger)
        return (input, ingest, { lines })
    }

    @Test func maxSpeedFeedsTheWholeCaptureInOneTurnAndStops() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let (input, ingest, lines) = try input(speed: .max, repeats: false, loop: loop)
        input.start()
        #expect(ingest.advertisementCount == 0, "nothing is fed before the loop turns")
        run(loop, until: { input.rounds == 1 })
        #expect(input.rounds == 1)
        #expect(ingest.advertisementCount == 2)
        #expect(lines() == (try ReplayTests.monitorLines("lab-passive-scan.btsnoop")))
        // Without --replay-loop no round follows.
        run(loop, until: { false }, limit: 3)
        #expect(input.rounds == 1)
        #expect(ingest.advertisementCount == 2)
    }

    @Test func aLoopingCaptureStartsOverAndLeavesTheLoopFree() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let (input, ingest, _) = try input(speed: .recorded, repeats: true, loop: loop)
        input.start()
        // Other work on the loop runs while the capture is paced: between its
        // two advertisements (recorded 1.6 s apart), not only between rounds,
        // as it could not if the replay slept in a handler.
        var ranBetweenAdvertisements = false
        func tick() {
            if ingest.advertisementCount % 2 == 1 { ranBetweenAdvertisements = true }
            _ = try? loop.after(.milliseconds(250), tick)
        }
        tick()
        run(loop, until: { input.rounds == 2 })
        #expect(input.rounds == 2)
        #expect(ingest.advertisementCount == 4)
        #expect(ranBetweenAdvertisements)
        input.stop()
        let advertisements = ingest.advertisementCount
        run(loop, until: { false }, limit: 3)
        #expect(ingest.advertisementCount == advertisements, "stopped means stopped")
    }
}
