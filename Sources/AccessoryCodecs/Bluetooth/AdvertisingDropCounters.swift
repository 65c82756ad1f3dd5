/// Why an advertising report did not become an `Advertisement`.
public enum AdvertisingDropReason: String, CaseIterable, Hashable, Sendable {
    /// The HCI event itself could not be decoded (see `HCIDecodingError`).
    case malformedEvent
    /// The report's AD structures could not be parsed (see `ADParsingError`).
    case malformedAdvertisingData
    /// An extended report without an advertiser address: nothing to key it by.
    case anonymousAdvertiser
    /// The controller marked the data truncated; the fragments so far are dropped too.
    case truncatedFragments
    /// A fragment that does not continue the advertisement pending for its key
    /// (its PDU properties changed mid-way, or a legacy PDU claimed to be fragmented).
    case outOfOrderFragment
    /// Reassembled data grew past the 1650-octet maximum.
    case reassemblyOverflow
    /// A pending advertisement was evicted to make room for another advertiser.
    case pendingEvicted
}

/// Counts dropped reports by reason, for the daemon to log in summary
/// (nothing per advertisement at info level).
public struct AdvertisingDropCounters: Hashable, Sendable {
    private var counts: [AdvertisingDropReason: Int] = [:]

    public init() {}

    public subscript(reason: AdvertisingDropReason) -> Int { counts[reason, default: 0] }

    public var total: Int { counts.values.reduce(0, &+) }

    public mutating func record(_ reason: AdvertisingDropReason, count: Int = 1) {
        counts[reason, default: 0] &+= count
    }

    /// Both sets of counts added together.
    public func adding(_ other: AdvertisingDropCounters) -> AdvertisingDropCounters {
        var sum = self
        for (reason, count) in other.counts { sum.record(reason, count: count) }
        return sum
    }

    /// The non-zero counts in declaration order, e.g. for one log line.
    public var nonZero: [(reason: AdvertisingDropReason, count: Int)] {
        AdvertisingDropReason.allCases.compactMap { reason in
            counts[reason].flatMap { $0 > 0 ? (reason, $0) : nil }
        }
    }
}
