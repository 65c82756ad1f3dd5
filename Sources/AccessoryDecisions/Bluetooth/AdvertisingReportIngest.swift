import AccessoryCodecs
import AccessoryCore

/// The path every HCI event takes after the socket, live or replayed: decode,
/// join extended-advertising fragments per controller, turn each report into
/// an `Advertisement` and record it. Whatever cannot be read is counted, not
/// logged one by one; an advertisement kept without some damaged AD
/// structures is also handed to `onDamage` (the daemon logs it at debug level).
public final class AdvertisingReportIngest {
    private let record: (Advertisement) -> Void
    private var reassemblers: [UInt16: ExtendedAdvertisingReassembler] = [:]
    /// Reports and events dropped, by reason, since the start.
    public private(set) var drops = AdvertisingDropCounters()
    /// Advertisements handed on since the start.
    public private(set) var advertisementCount = 0
    /// Called with an advertisement whose data lost damaged AD structures, and what was lost.
    public var onDamage: ((Advertisement, [ADParsingError]) -> Void)?

    /// Notes a clean report of a device already known, given its radio
    /// facts, its AD bytes and a way to parse them, and says whether it could
    /// (see `DiscoveryPipeline.recordKnown`).
    private let recordKnown: ((AdvertisingReportFacts, UnsafeRawBufferPointer, () -> AdvertisingData) -> Bool)?
    /// What a clean legacy report is parsed into for `recordKnown`: one
    /// value for every report, so its storage is reused.
    private var parsed = AdvertisingData()
    /// Whether the fast path is given; kept, since in an unoptimised build
    /// telling it anew on every report may allocate.
    private let hasFastPath: Bool

    /// `recordKnown`, when given, is asked first for every clean legacy
    /// report: a repeat it takes is neither copied, parsed nor matched again,
    /// a change is parsed (only then) into storage reused from one report to
    /// the next and not copied.
    public init(
        record: @escaping (Advertisement) -> Void,
        recordKnown: ((AdvertisingReportFacts, UnsafeRawBufferPointer, () -> AdvertisingData) -> Bool)? = nil
    ) {
        self.record = record
        self.recordKnown = recordKnown
        hasFastPath = recordKnown != nil
    }

    /// Everything into `pipeline`, every clean legacy report by its fast
    /// path (`recordClean`), which takes new devices too: true always.
    public convenience init(pipeline: DiscoveryPipeline) {
        self.init(
            record: { pipeline.record($0) },
            recordKnown: {
                pipeline.recordClean($0, payload: $1, parse: $2)
                return true
            })
    }

    /// What `ingest` returns for legacy advertising reports it read in place:
    /// the scan state only needs to know that reports came.
    public static let reportsReadInPlace = HCIEvent.leMeta(.advertisingReports([]))

    /// One HCI event packet (no H4 indicator) from `controller`. Returns the
    /// decoded event for the controller's scan state, or nil when it could
    /// not be decoded. Legacy advertising reports are read where they lie,
    /// without decoding the event into values: for them it returns `reportsReadInPlace`.
    @discardableResult
    public func ingest(event bytes: [UInt8], controller: UInt16?) -> HCIEvent? {
        if bytes.withUnsafeBytes({ ingestInPlace($0, controller: controller) }) { return Self.reportsReadInPlace }
        return decode(bytes, controller: controller)
    }

    /// `ingest(event:controller:)` for a packet borrowed where it lies (a
    /// replayed capture's record): legacy reports are read without copying
    /// the packet first; any other event is copied to be decoded.
    @discardableResult
    public func ingest(eventAt packet: UnsafeRawBufferPointer, controller: UInt16?) -> HCIEvent? {
        if ingestInPlace(packet, controller: controller) { return Self.reportsReadInPlace }
        return decode(Array(packet), controller: controller)
    }

    /// `ingest(eventAt:controller:)` for a caller that does not want the
    /// decoded event (a replay): legacy reports' `reportsReadInPlace` is not
    /// copied out to be dropped, ~40 instructions a report (callgrind, issue 25).
    public func take(eventAt packet: UnsafeRawBufferPointer, controller: UInt16?) {
        if ingestInPlace(packet, controller: controller) { return }
        _ = decode(Array(packet), controller: controller)
    }

    /// Legacy advertising reports read where they lie; false, doing nothing, for any other event.
    private func ingestInPlace(_ packet: UnsafeRawBufferPointer, controller: UInt16?) -> Bool {
        LEAdvertisingReport.forEachReportInPlace(inEventPacket: packet) { report in
            ingest(report, controller: controller)
        }
    }

    private func decode(_ bytes: [UInt8], controller: UInt16?) -> HCIEvent? {
        let event: HCIEvent
        do {
            event = try HCIEvent.decode(bytes)
        } catch {
            drops.record(.malformedEvent)
            return nil
        }
        switch event {
        case .leMeta(.advertisingReports(let reports)):
            for report in reports {
                convert { (damage) throws(AdvertisementConversionError) in
                    Advertisement(report, controllerIndex: controller, damage: &damage)
                }
            }
        case .leMeta(.extendedAdvertisingReports(let reports)):
            let key = controller ?? HCIDeviceEvent.noControllerKey
            var reassembler = reassemblers[key] ?? ExtendedAdvertisingReassembler()
            for fragment in reports {
                if case .complete(let report) = reassembler.add(fragment) {
                    convert { (damage) throws(AdvertisementConversionError) in
                        try Advertisement(report, controllerIndex: controller, damage: &damage)
                    }
                }
            }
            reassemblers[key] = reassembler
        default:
            break
        }
        return event
    }

    /// A legacy report read in place: a clean payload goes to `recordKnown`
    /// as it lies (parsed into reused storage only if it changed); anything
    /// else, or a report `recordKnown` does not take, is copied, parsed and recorded.
    private func ingest(_ report: BorrowedLEAdvertisingReport, controller: UInt16?) {
        if hasFastPath, AdvertisingDataParser.isClean(report.data),
            recordKnown(report.data, Advertisement.facts(of: report, controllerIndex: controller))
        {
            advertisementCount &+= 1
            return
        }
        convert { (damage) throws(AdvertisementConversionError) in
            Advertisement(report.report, controllerIndex: controller, damage: &damage)
        }
    }

    /// A clean report of a device the pipeline knows, by its fast path: as
    /// a repeat, else parsed into `parsed` as a change. False, without
    /// parsing, when the device is not known.
    private func recordKnown(_ payload: UnsafeRawBufferPointer, _ facts: AdvertisingReportFacts) -> Bool {
        guard let recordKnown else { return false }
        return recordKnown(facts, payload) {
            // `isClean` took these very bytes: nothing to drop, nothing to check again.
            AdvertisingDataParser.read(cleanBytesAt: payload, into: &parsed)
            return parsed
        }
    }

    /// Drops pending fragments of `controller` (its scan restarted or it went away).
    public func forgetPendingFragments(of controller: UInt16?) {
        let key = controller ?? HCIDeviceEvent.noControllerKey
        guard var reassembler = reassemblers[key] else { return }
        reassembler.reset()
        reassemblers[key] = reassembler
    }

    /// Every drop so far, the reassemblers' included.
    public var allDrops: AdvertisingDropCounters {
        reassemblers.values.reduce(drops) { $0.adding($1.drops) }
    }

    private func convert(_ make: (inout [ADParsingError]) throws(AdvertisementConversionError) -> Advertisement) {
        var damage: [ADParsingError] = []
        do {
            let advertisement = try make(&damage)
            drops.record(damage)
            if !damage.isEmpty { onDamage?(advertisement, damage) }
            record(advertisement)
            advertisementCount &+= 1
        } catch {
            switch error {
            case .anonymousAdvertiser: drops.record(.anonymousAdvertiser)
            case .incompleteData: drops.record(.truncatedFragments)
            }
        }
    }
}

extension HCIDeviceEvent {
    /// The reassembler key for events of no known controller (an H4 capture).
    static let noControllerKey: UInt16 = 0xFFFF
}
