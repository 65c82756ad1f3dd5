import AccessoryCore

/// Joins the fragments of extended advertising data. A controller reports a
/// long advertisement as several reports: each but the last says "incomplete,
/// more to come"; the last says "complete" (or "truncated" when it gave up).
/// Fragments of different advertisers may interleave, so they are keyed by
/// advertiser, advertising set and whether they belong to a scan response.
///
/// Memory stays bounded: at most `maximumDataLength` octets per pending
/// advertisement and at most `maximumPendingAdvertisements` pending at once
/// (the oldest is evicted to make room).
public struct ExtendedAdvertisingReassembler: Sendable {
    public struct Key: Hashable, Sendable {
        public var address: BluetoothAddress
        /// Nil for anonymous advertising.
        public var addressType: BluetoothAddressType?
        public var advertisingSID: UInt8?
        public var isScanResponse: Bool

        public init(_ report: LEExtendedAdvertisingReport) {
            address = report.address
            addressType = report.addressType
            advertisingSID = report.advertisingSID
            isScanResponse = report.properties.contains(.scanResponse)
        }
    }

    public enum Outcome: Hashable, Sendable {
        /// The whole advertisement: its data joined, its status `.complete`.
        case complete(LEExtendedAdvertisingReport)
        /// Kept until the rest arrives.
        case pending
        /// Discarded, and counted in `drops`.
        case dropped(AdvertisingDropReason)
    }

    /// The most AD an extended advertisement can carry (Core Spec Vol 4 Part E §7.8.54).
    public static let specificationMaximumDataLength = 1650

    public let maximumDataLength: Int
    public let maximumPendingAdvertisements: Int
    /// Every fragment or pending advertisement dropped so far, by reason.
    public private(set) var drops = AdvertisingDropCounters()

    private var pending: [Key: LEExtendedAdvertisingReport] = [:]
    /// Pending keys, oldest first, for eviction.
    private var arrivalOrder: [Key] = []

    public init(
        maximumDataLength: Int = ExtendedAdvertisingReassembler.specificationMaximumDataLength,
        maximumPendingAdvertisements: Int = 16
    ) {
        self.maximumDataLength = max(0, maximumDataLength)
        self.maximumPendingAdvertisements = max(1, maximumPendingAdvertisements)
    }

    public var pendingCount: Int { pending.count }

    public mutating func add(_ fragment: LEExtendedAdvertisingReport) -> Outcome {
        let key = Key(fragment)
        // Legacy PDUs hold at most 31 octets and are never fragmented.
        if fragment.properties.contains(.legacy) {
            guard fragment.dataStatus == .complete else { return drop(.outOfOrderFragment) }
            return .complete(fragment)
        }

        var joined = fragment
        if let earlier = removePending(key) {
            if continues(earlier, with: fragment) {
                joined = earlier
                joined.data += fragment.data
                joined.dataStatus = fragment.dataStatus
                // The freshest radio facts describe the advertisement best.
                joined.rssi = fragment.rssi ?? earlier.rssi
                joined.txPower = fragment.txPower ?? earlier.txPower
            } else {
                // The earlier advertisement lost its tail; this fragment starts a new one.
                drops.record(.outOfOrderFragment)
            }
        }

        guard joined.data.count <= maximumDataLength else { return drop(.reassemblyOverflow) }
        switch joined.dataStatus {
        case .complete:
            return .complete(joined)
        case .incompleteTruncated:
            return drop(.truncatedFragments)
        case .incompleteMoreToCome:
            if pending.count >= maximumPendingAdvertisements, let oldest = arrivalOrder.first {
                _ = removePending(oldest)
                drops.record(.pendingEvicted)
            }
            pending[key] = joined
            arrivalOrder.append(key)
            return .pending
        }
    }

    /// Forgets every pending advertisement (scanning stopped, or the controller
    /// went away) and answers how many there were. Not counted as drops.
    @discardableResult
    public mutating func reset() -> Int {
        defer {
            pending.removeAll()
            arrivalOrder.removeAll()
        }
        return pending.count
    }

    /// Fragments of one advertisement share the PDU's properties and PHYs.
    private func continues(_ earlier: LEExtendedAdvertisingReport, with next: LEExtendedAdvertisingReport) -> Bool {
        earlier.properties == next.properties && earlier.primaryPHY == next.primaryPHY
            && earlier.secondaryPHY == next.secondaryPHY
    }

    private mutating func removePending(_ key: Key) -> LEExtendedAdvertisingReport? {
        guard let report = pending.removeValue(forKey: key) else { return nil }
        arrivalOrder.removeAll { $0 == key }
        return report
    }

    private mutating func drop(_ reason: AdvertisingDropReason) -> Outcome {
        drops.record(reason)
        return .dropped(reason)
    }
}
