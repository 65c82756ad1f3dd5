import AccessoryCore

/// The one path from HCI event bytes to `Advertisement`s, shared by the live
/// HCI socket and the replay of a btsnoop capture: decode the event, join
/// extended fragments, parse the AD, and count whatever had to be dropped.
/// It never throws: a bad report is counted and the rest go on; a report with
/// damaged AD structures is kept with what could be read, and each structure
/// left out is counted by kind.
public struct AdvertisingReportDecoder: Sendable {
    public private(set) var reassembler: ExtendedAdvertisingReassembler
    private var decodingDrops = AdvertisingDropCounters()

    public init(reassembler: ExtendedAdvertisingReassembler = ExtendedAdvertisingReassembler()) {
        self.reassembler = reassembler
    }

    /// Everything dropped so far, by reason, including the reassembler's drops.
    public var drops: AdvertisingDropCounters { decodingDrops.adding(reassembler.drops) }

    /// The advertisements in one HCI event packet (without the H4 indicator).
    /// Events other than advertising reports give none; undecodable bytes are
    /// counted as `.malformedEvent`.
    public mutating func advertisements(
        fromEventPacket bytes: some Collection<UInt8>, controllerIndex: UInt16? = nil
    ) -> [Advertisement] {
        do {
            return advertisements(from: try HCIEvent.decode(bytes), controllerIndex: controllerIndex)
        } catch {
            decodingDrops.record(.malformedEvent)
            return []
        }
    }

    public mutating func advertisements(from event: HCIEvent, controllerIndex: UInt16? = nil) -> [Advertisement] {
        var advertisements: [Advertisement] = []
        switch event {
        case .leMeta(.advertisingReports(let reports)):
            for report in reports {
                var damage: [ADParsingError] = []
                advertisements.append(Advertisement(report, controllerIndex: controllerIndex, damage: &damage))
                decodingDrops.record(damage)
            }
        case .leMeta(.extendedAdvertisingReports(let fragments)):
            for fragment in fragments {
                guard case .complete(let report) = reassembler.add(fragment) else { continue }
                var damage: [ADParsingError] = []
                do throws(AdvertisementConversionError) {
                    advertisements.append(try Advertisement(report, controllerIndex: controllerIndex, damage: &damage))
                } catch {
                    record(error)
                }
                decodingDrops.record(damage)
            }
        default:
            break
        }
        return advertisements
    }

    /// Scanning stopped: pending fragments will never be completed.
    public mutating func reset() {
        reassembler.reset()
    }

    private mutating func record(_ error: AdvertisementConversionError) {
        switch error {
        case .anonymousAdvertiser: decodingDrops.record(.anonymousAdvertiser)
        // The reassembler hands on complete reports only; count it should that change.
        case .incompleteData: decodingDrops.record(.truncatedFragments)
        }
    }
}
