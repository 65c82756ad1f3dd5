/// What was dropped on the way from HCI events to `Advertisement`s: a whole
/// report (the cases up to `pendingEvicted`), or one AD structure of a report
/// that was kept with the rest of its data (the cases after it, one per
/// `ADParsingError`; see `AdvertisingDataParser.read`).
public enum AdvertisingDropReason: String, CaseIterable, Hashable, Sendable {
    /// The HCI event itself could not be decoded (see `HCIDecodingError`).
    case malformedEvent
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
    /// An AD structure running past the end of the data (and so the last one read).
    case structureLengthPastEnd
    /// A service UUID list not a whole number of UUIDs.
    case invalidUUIDListLength
    /// Service data shorter than its UUID.
    case serviceDataTooShort
    /// Manufacturer data shorter than its company identifier.
    case manufacturerDataTooShort
    /// Appearance not 2 octets.
    case invalidAppearanceLength
    /// TX Power Level not 1 octet.
    case invalidTXPowerLevelLength
}

extension ADParsingError {
    /// The counter this damage goes to.
    public var dropReason: AdvertisingDropReason {
        switch self {
        case .structureLengthPastEnd: .structureLengthPastEnd
        case .invalidUUIDListLength: .invalidUUIDListLength
        case .serviceDataTooShort: .serviceDataTooShort
        case .manufacturerDataTooShort: .manufacturerDataTooShort
        case .invalidAppearanceLength: .invalidAppearanceLength
        case .invalidTXPowerLevelLength: .invalidTXPowerLevelLength
        }
    }
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

    /// Counts every structure `damage` left out.
    public mutating func record(_ damage: [ADParsingError]) {
        for error in damage { record(error.dropReason) }
    }

    /// `reason=count` for each non-zero count, space separated: the summary
    /// the daemon logs (`--monitor`, `--replay`) and the lab reads.
    public var summary: String {
        nonZero.map { "\($0.reason.rawValue)=\($0.count)" }.joined(separator: " ")
    }

    /// The non-zero counts in declaration order, e.g. for one log line.
    public var nonZero: [(reason: AdvertisingDropReason, count: Int)] {
        AdvertisingDropReason.allCases.compactMap { reason in
            counts[reason].flatMap { $0 > 0 ? (reason, $0) : nil }
        }
    }
}
