/// The keys the index files a Bluetooth descriptor under: its company
/// identifier, or lacking one its service UUID, and with it the first octet
/// of the value when the descriptor's masked data fixes that octet (mask
/// 0xFF). The descriptors of a busy company mostly ask for a value of one
/// kind (an iBeacon's 0x02, a continuity message's type): filed under the
/// octet, an advertisement meets only those of its own values' first octets.

/// A company identifier, with or without a first octet.
struct CompanyBucketKey: Comparable, Sendable {
    /// The company above the octet, so a company's keys sort together: bit 8
    /// says an octet is given, bits 0-7 hold it.
    private let raw: UInt32

    init(_ company: UInt16, firstOctet: UInt8? = nil) {
        raw = UInt32(company) << 9 | (firstOctet.map { 0x100 | UInt32($0) } ?? 0)
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.raw < rhs.raw }
}

/// A service UUID, with or without the first octet of its service data.
struct ServiceBucketKey: Comparable, Sendable {
    let uuid: BluetoothUUID
    /// 0x100 | the octet when one is given, else 0.
    private let octet: UInt16

    init(_ uuid: BluetoothUUID, firstOctet: UInt8? = nil) {
        self.uuid = uuid
        octet = firstOctet.map { 0x100 | UInt16($0) } ?? 0
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.uuid.high, lhs.uuid.low, lhs.octet) < (rhs.uuid.high, rhs.uuid.low, rhs.octet)
    }
}

/// Which of the 256 octet values were seen, on the stack: a company's
/// sub-bucket for an octet is visited once however many of its values start so.
struct OctetSet {
    private var low: (UInt64, UInt64) = (0, 0)
    private var high: (UInt64, UInt64) = (0, 0)

    /// Adds `octet`; false when it was there already.
    mutating func insert(_ octet: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(octet & 63)
        let seen: Bool
        switch octet >> 6 {
        case 0: seen = low.0 & bit != 0; low.0 |= bit
        case 1: seen = low.1 & bit != 0; low.1 |= bit
        case 2: seen = high.0 & bit != 0; high.0 |= bit
        default: seen = high.1 & bit != 0; high.1 |= bit
        }
        return !seen
    }
}
