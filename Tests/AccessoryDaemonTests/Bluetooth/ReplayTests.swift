import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions
import Foundation
import Testing
@testable import AccessoryDaemon

/// The committed lab captures, replayed through the daemon's path after the
/// socket (ingest, registry, monitor lines), give the advertisements the
/// fixtures' README says were on the air.
@Suite struct ReplayTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AccessoryCodecsTests/Fixtures/bluetooth")

    static func capture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// What `accessoryd --replay FILE --replay-speed max --monitor` prints on stdout.
    static func monitorLines(_ name: String) throws -> [String] {
        let pipeline = DiscoveryPipeline(clock: ManualClock())
        var lines: [String] = []
        pipeline.onSighting { lines.append(MonitorLine.format($0)) }
        let ingest = AdvertisingReportIngest { pipeline.record($0) }
        try BtsnoopReplay(capture: capture(name), ingest: ingest).run()
        return lines
    }

    static let advertiser = "bluetooth hci0 00:AA:01:01:00:01/public"

    @Test func passiveScanGivesBothPayloadsMergedPerDevice() throws {
        #expect(try Self.monitorLines("lab-passive-scan.btsnoop") == [
            Self.advertiser + " rssi=none connectable=no scannable=no uuids=6E400001-B5A3-F393-E0A9-E50E24DCCA9E"
                + " service_data=180F:64 manufacturer=ffff:2a flags=0x06",
            // Payload B overlays A: service data 180F stays known from A.
            Self.advertiser + " rssi=none tx_power=-8 connectable=no scannable=no name=\"Lab Sensor\" uuids=180F"
                + " service_data=180F:64 manufacturer=ffff:2b appearance=0x0300 flags=0x06",
        ])
    }

    @Test func activeScanMergesTheScanResponse() throws {
        let lines = try Self.monitorLines("lab-active-scan-response.btsnoop")
        #expect(lines.first == Self.advertiser
            + " rssi=none connectable=no scannable=yes uuids=180F manufacturer=ffff:01020304 flags=0x06")
        #expect(lines.count == 4)
        #expect(lines.dropFirst().allSatisfy {
            $0 == Self.advertiser + " rssi=none tx_power=4 connectable=no scannable=yes name=\"Porch Light\""
                + " uuids=12345678,180F manufacturer=ffff:01020304 flags=0x06"
        })
    }

    @Test func extendedScanReportsComeThroughTheReassembler() throws {
        let lines = try Self.monitorLines("lab-extended-scan.btsnoop")
        #expect(lines.count == 4)
        #expect(lines.last == Self.advertiser + " rssi=none connectable=yes scannable=yes name=\"Lab Sensor\""
            + " uuids=6E400001-B5A3-F393-E0A9-E50E24DCCA9E service_data=180F:64 manufacturer=ffff:2a flags=0x06")
    }

    @Test func onlyEventsAreFedAndCommandsAreSkipped() throws {
        let records = try BtsnoopReader.records(in: Self.capture("lab-passive-scan.btsnoop"))
        let ingest = AdvertisingReportIngest { _ in }
        let replay = try BtsnoopReplay(capture: Self.capture("lab-passive-scan.btsnoop"), ingest: ingest)
        try replay.run()
        #expect(replay.eventCount == records.filter { $0.opcode == .eventPacket }.count)
        #expect(ingest.advertisementCount == 2)
        #expect(ingest.allDrops.total == 0)
    }

    @Test func aDamagedCaptureReplaysWhatPrecedesTheDamage() throws {
        var bytes = try Self.capture("lab-passive-scan.btsnoop")
        bytes.removeLast(3)
        var heard = 0
        let replay = try BtsnoopReplay(capture: bytes, ingest: AdvertisingReportIngest { _ in heard += 1 })
        #expect(throws: BtsnoopError.self) { try replay.run() }
        #expect(heard == 2)
    }

    @Test func malformedEventsAreCountedNotFatal() {
        var heard = 0
        let ingest = AdvertisingReportIngest { _ in heard += 1 }
        // LE Meta, advertising report claiming 1 report but no bytes for it.
        #expect(ingest.ingest(event: [0x3E, 0x02, 0x02, 0x01], controller: 0) == nil)
        #expect(ingest.ingest(event: [], controller: 0) == nil)
        #expect(ingest.drops[.malformedEvent] == 2)
        #expect(heard == 0)
    }
}

@Suite struct RecordedSpeedReplayTests {
    /// `--replay`'s recorded pace, on a manual scheduler: each record is fed
    /// at its offset in the capture (so the gaps are kept), nothing sooner,
    /// the monitor's lines are flushed before each wait, and the
    /// advertisements are the same as at full speed. No time passes for real.
    @Test func recordedPaceFeedsEachRecordAtItsOffsetInTheCapture() throws {
        let capture = try ReplayTests.capture("lab-passive-scan.btsnoop")
        let records = try BtsnoopReader.records(in: capture)
        let scheduler = ManualScheduler()
        let start = scheduler.now
        let pipeline = DiscoveryPipeline(clock: scheduler)
        var lines: [String] = []
        pipeline.onSighting { lines.append(MonitorLine.format($0)) }
        let replay = try BtsnoopReplay(capture: capture, ingest: AdvertisingReportIngest { pipeline.record($0) })
        var waits = 0
        var end: BtsnoopError??
        let paced = PacedReplay(replay: replay, speed: .recorded, scheduler: scheduler,
                                beforeWait: { waits += 1 }, finished: { end = .some($0) })
        paced.start()
        #expect(replay.eventCount == 0, "nothing is fed before the scheduler's turn")

        var offsets: [Duration] = []
        var fedByThen: [Int] = []
        while end == nil, let next = scheduler.nextDeadline {
            scheduler.advance(to: next)
            offsets.append(scheduler.now.duration(since: start))
            fedByThen.append(replay.eventCount)
        }
        var instants: [Int64] = []
        for record in records where instants.last != record.timestamp { instants.append(record.timestamp) }
        #expect(offsets == instants.map { .microseconds($0 - records[0].timestamp) })
        #expect(fedByThen == instants.map { instant in
            records.filter { $0.timestamp <= instant && $0.opcode == .eventPacket }.count
        })
        #expect(offsets.count > 1)
        #expect(waits == offsets.count - 1)
        #expect(end == .some(nil))
        #expect(scheduler.pending == 0)
        #expect(lines == (try ReplayTests.monitorLines("lab-passive-scan.btsnoop")))
    }

    /// `--replay-speed max`: the whole capture in the scheduler's first turn, no wait.
    @Test func maxSpeedFeedsEverythingInOneTurn() throws {
        let capture = try ReplayTests.capture("lab-passive-scan.btsnoop")
        let scheduler = ManualScheduler()
        let replay = try BtsnoopReplay(capture: capture, ingest: AdvertisingReportIngest { _ in })
        var end: BtsnoopError??
        let paced = PacedReplay(replay: replay, speed: .max, scheduler: scheduler,
                                beforeWait: { Issue.record("waited") }, finished: { end = .some($0) })
        paced.start()
        scheduler.runDue()
        #expect(end == .some(nil))
        #expect(replay.eventCount == 19)
        #expect(scheduler.pending == 0)
        #expect(scheduler.now == .zero)
    }

    /// A damaged record ends the replay with its error, after what precedes it.
    @Test func aDamagedRecordEndsThePacedReplayWithItsError() throws {
        var capture = try ReplayTests.capture("lab-passive-scan.btsnoop")
        capture.removeLast(3)
        let scheduler = ManualScheduler()
        var heard = 0
        let replay = try BtsnoopReplay(capture: capture, ingest: AdvertisingReportIngest { _ in heard += 1 })
        var end: BtsnoopError??
        let paced = PacedReplay(replay: replay, speed: .recorded, scheduler: scheduler, finished: { end = .some($0) })
        paced.start()
        while end == nil, let next = scheduler.nextDeadline { scheduler.advance(to: next) }
        #expect(end != nil && end! != nil)
        #expect(heard == 2)
    }

    /// `--serve` steps through the capture on the event loop's timers: the
    /// waits it asks for are the capture's gaps (records of one instant fed
    /// together), and it feeds the same advertisements as `run`.
    @Test func stepsWaitTheCapturesGapsAndFeedTheSameAdvertisements() throws {
        let capture = try ReplayTests.capture("lab-passive-scan.btsnoop")
        let timestamps = try BtsnoopReader.records(in: capture).map(\.timestamp)
        let pipeline = DiscoveryPipeline(clock: ManualClock())
        var lines: [String] = []
        pipeline.onSighting { lines.append(MonitorLine.format($0)) }
        let replay = try BtsnoopReplay(capture: capture, ingest: AdvertisingReportIngest { pipeline.record($0) })
        var waits: [Duration] = []
        while let wait = try replay.step() { waits.append(wait) }
        let gaps = zip(timestamps, timestamps.dropFirst()).map { Duration.microseconds($1 - $0) }
        #expect(waits == gaps.filter { $0 != .zero })
        #expect(!waits.isEmpty)
        #expect(replay.eventCount == 19)
        #expect(lines == (try ReplayTests.monitorLines("lab-passive-scan.btsnoop")))
        #expect(try replay.step() == nil)
    }

    @Test func gapsAreNeverNegativeNorLongerThanAMinute() {
        #expect(BtsnoopReplay.gap(from: 5_000, to: 1_000) == .zero)
        #expect(BtsnoopReplay.gap(from: 0, to: 3_600_000_000) == .seconds(60))
        #expect(BtsnoopReplay.gap(from: .min, to: .max) == .zero)
    }
}
