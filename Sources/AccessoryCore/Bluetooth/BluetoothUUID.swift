/// A Bluetooth UUID, always held as its full 128-bit value so that `180F`,
/// `0000180F` and `0000180f-0000-1000-8000-00805f9b34fb` are one and the same.
public struct BluetoothUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 128-bit value: `high` holds the first eight octets as written.
    public let high: UInt64
    public let low: UInt64

    /// The Bluetooth Base UUID, 00000000-0000-1000-8000-00805F9B34FB.
    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public init(uuid16: UInt16) { self.init(uuid32: UInt32(uuid16)) }

    public init(uuid32: UInt32) {
        self.init(high: UInt64(uuid32) << 32 | Self.baseHigh, low: Self.baseLow)
    }

    /// From 2, 4 or 16 octets least significant first, as AD structures and ATT carry them.
    /// Inlinable, so a caller in another module gets it specialised for its collection.
    @inlinable
    public init?(littleEndianBytes bytes: some Collection<UInt8>) {
        let count = bytes.count
        guard count == 2 || count == 4 || count == 16 else { return nil }
        // Least significant octet first: each octet read goes above the ones before it.
        var low: UInt64 = 0
        var high: UInt64 = 0
        var position = 0
        for octet in bytes {
            if position < 8 {
                low |= UInt64(octet) << UInt64(8 * position)
            } else {
                high |= UInt64(octet) << UInt64(8 * (position - 8))
            }
            position += 1
        }
        switch count {
        case 2: self.init(uuid16: UInt16(truncatingIfNeeded: low))
        case 4: self.init(uuid32: UInt32(truncatingIfNeeded: low))
        default: self.init(high: high, low: low)
        }
    }

    /// Parses `180F`, `0000180F` or the 36-character form, in either case.
    public init?(_ text: some StringProtocol) {
        // The usual spelling, hex digits only (and dashes in their places),
        // read as octets: the reading below, over Characters, cost ~3,500
        // instructions a UUID (callgrind, issue 25). It gives the same value.
        if let parsed = Self.plainHex(text.utf8) {
            self = parsed
            return
        }
        let digits = String(text.filter { $0 != "-" })
        switch digits.count {
        case 4:
            guard text.count == 4, let v = UInt16(digits, radix: 16) else { return nil }
            self.init(uuid16: v)
        case 8:
            guard text.count == 8, let v = UInt32(digits, radix: 16) else { return nil }
            self.init(uuid32: v)
        case 32:
            // Dashes only in the canonical 8-4-4-4-12 places.
            let dashOffsets = text.enumerated().filter { $0.element == "-" }.map(\.offset)
            guard dashOffsets == [8, 13, 18, 23],
                let high = UInt64(digits.prefix(16), radix: 16),
                let low = UInt64(digits.suffix(16), radix: 16)
            else { return nil }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// `text` as 4 or 8 hex digits, or 32 with dashes at 8, 13, 18 and 23;
    /// nil for anything else, which `init?(_:)` then reads as Characters.
    private static func plainHex(_ text: some Collection<UInt8>) -> BluetoothUUID? {
        let count = text.count
        guard count == 4 || count == 8 || count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        var position = 0
        for octet in text {
            defer { position += 1 }
            if count == 36, position == 8 || position == 13 || position == 18 || position == 23 {
                guard octet == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch octet {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = octet - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = octet - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = octet - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        switch count {
        case 4: return BluetoothUUID(uuid16: UInt16(truncatingIfNeeded: high))
        case 8: return BluetoothUUID(uuid32: UInt32(truncatingIfNeeded: high))
        default: return BluetoothUUID(high: high, low: low)
        }
    }

    /// The 16- or 32-bit alias when the UUID is built on the Base UUID.
    public var shortValue: UInt32? {
        guard low == Self.baseLow, high & 0xFFFF_FFFF == Self.baseHigh else { return nil }
        return UInt32(high >> 32)
    }

    /// The 16 octets as written (most significant first).
    public var bytes: [UInt8] {
        // Two statements: Swift 6.0–6.2 cannot type-check the single expression in reasonable time.
        let highBytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * $0)) }
        let lowBytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * $0)) }
        return highBytes + lowBytes
    }

    /// Canonical uppercase form; `180F` for a 16-bit alias, `0000FE2C`-style never.
    public var description: String {
        if let short = shortValue {
            let width = short <= 0xFFFF ? 2 : 4
            return (0..<width).reversed()
                .map { hexByte(UInt8(truncatingIfNeeded: short >> UInt32(8 * $0)), uppercase: true) }
                .joined()
        }
        let hex = bytes.map { hexByte($0, uppercase: true) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
            .map { $0.joined() }.joined(separator: "-")
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
