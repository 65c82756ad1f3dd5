import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions

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
    /// The record `step` read ahead to learn the gap before it.
    private var pending: BtsnoopRecordLocation?
    public private(set) var eventCount = 0

    public init(capture: [UInt8], ingest: AdvertisingReportIngest) throws(BtsnoopError) {
        reader = try BtsnoopReader(capture)
        self.ingest = ingest
    }

    /// Feeds every remaining record at once, ignoring the gaps: for tests.
    /// The daemon paces a replay with `step` on its scheduler (`PacedReplay`).
    public func run() throws(BtsnoopError) {
        if let record = pending {
            pending = nil
            feed(record)
        }
        // The capture borrowed once for all its records: borrowed per record, it was retained and released each time.
        let capture = reader.bytes
        var failure: BtsnoopError?
        capture.withUnsafeBytes { all in
            do throws(BtsnoopError) {
                while let record = try reader.nextLocation() { feed(record, from: all) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// For a replay on a scheduler, which must not sleep: feeds the next
    /// record and every one recorded at the same instant, and returns the
    /// wait before the next; nil once the capture is done.
    public func step() throws(BtsnoopError) -> Duration? {
        guard var record = try nextRecord() else { return nil }
        while true {
            feed(record)
            guard let next = try reader.nextLocation() else { return nil }
            let wait = Self.gap(from: record.timestamp, to: next.timestamp)
            guard wait == .zero else {
                pending = next
                return wait
            }
            record = next
        }
    }

    private func nextRecord() throws(BtsnoopError) -> BtsnoopRecordLocation? {
        if let record = pending {
            pending = nil
            return record
        }
        return try reader.nextLocation()
    }

    /// The wait between two records: never negative (clocks in captures may
    /// step back), and a gap over a minute is a pause in the capture, not
    /// something worth waiting for.
    static func gap(from earlier: Int64, to later: Int64) -> Duration {
        let (difference, overflow) = later.subtractingReportingOverflow(earlier)
        guard !overflow, difference > 0 else { return .zero }
        return .microseconds(min(difference, 60_000_000))
    }

    private func feed(_ record: BtsnoopRecordLocation) {
        reader.bytes.withUnsafeBytes { feed(record, from: $0) }
    }

    /// `record` of `capture` (the reader's bytes).
    private func feed(_ record: BtsnoopRecordLocation, from capture: UnsafeRawBufferPointer) {
        guard record.opcode == .eventPacket else { return }
        eventCount &+= 1
        // The reader framed it inside the capture; checked again, as an array's subscript would.
        precondition(record.packet.lowerBound >= 0 && record.packet.upperBound <= capture.count)
        // Borrowed where it lies in the capture, not copied out: a copy per record cost ~250 instructions.
        ingest.take(eventAt: UnsafeRawBufferPointer(rebasing: capture[record.packet]), controller: record.controllerIndex)
    }
}
