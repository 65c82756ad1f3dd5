import AccessoryCodecs
import AccessoryCore
import AccessorySystem

/// Feeds the HCI events of a btsnoop capture (`btmon -w`, or an H4 snoop
/// log) into the same ingest a live socket feeds, at the pace they were
/// recorded or as fast as possible. Only events (controller to host) are fed;
/// commands and data packets are skipped, as the live socket's filter skips them.
public final class BtsnoopReplay {
    public enum Speed: String, CaseIterable, Sendable {
        /// Keeps the gaps between records, so presence timing behaves as it did live.
        case recorded
        /// Every record at once: for debugging captures and for benchmarks.
        case max
    }

    private var reader: BtsnoopReader
    private let ingest: AdvertisingReportIngest
    public private(set) var eventCount = 0

    public init(capture: [UInt8], ingest: AdvertisingReportIngest) throws(BtsnoopError) {
        reader = try BtsnoopReader(capture)
        self.ingest = ingest
    }

    /// Feeds every remaining record now.
    public func runToEnd() throws(BtsnoopError) {
        while let record = try reader.next() { feed(record) }
    }

    /// Feeds the records at the recorded pace on `loop`, then calls
    /// `finished` with nil, or with the error that stopped the replay.
    public func run(on loop: EventLoop, finished: @escaping (BtsnoopError?) -> Void) {
        step(on: loop, previous: nil, finished: finished)
    }

    private func step(on loop: EventLoop, previous: Int64?, finished: @escaping (BtsnoopError?) -> Void) {
        let record: BtsnoopRecord?
        do { record = try reader.next() } catch {
            finished(error)
            return
        }
        guard let record else {
            finished(nil)
            return
        }
        let gap = previous.map { max(0, record.timestamp &- $0) } ?? 0
        // A capture spanning hours replays its gaps; one over a minute is a
        // pause in the capture, not something worth waiting for.
        let delay = Duration.microseconds(min(gap, 60_000_000))
        do {
            try loop.after(delay) { [self] in
                feed(record)
                step(on: loop, previous: record.timestamp, finished: finished)
            }
        } catch {
            finished(nil)
        }
    }

    private func feed(_ record: BtsnoopRecord) {
        guard record.opcode == .eventPacket else { return }
        eventCount &+= 1
        ingest.ingest(event: record.packet, controller: record.controllerIndex)
    }
}
