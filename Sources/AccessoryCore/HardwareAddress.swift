/// A 48-bit IEEE hardware address (EUI-48): a Bluetooth device address or a Wi-Fi BSSID.
///
/// Stored as the integer the address denotes, most significant octet first, so
/// that `AA:BB:CC:DD:EE:FF` sorts and masks the way it reads. HCI carries it
/// least significant octet first; nl80211 carries it as written.
public struct HardwareAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The address in the low 48 bits.
    public let rawValue: UInt64

    public init?(rawValue: UInt64) {
        guard rawValue >> 48 == 0 else { return nil }
        self.rawValue = rawValue
    }

    /// From six octets in display order (nl80211's `NL80211_ATTR_BSSID`, `AA:BB:…`).
    public init?(octets: some Collection<UInt8>) {
        guard octets.count == 6 else { return nil }
        rawValue = octets.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// From six octets least significant first, as HCI carries a `bdaddr_t`.
    /// Inlinable, so a caller in another module gets it specialised for its collection.
    @inlinable
    public init?(littleEndianOctets octets: some Collection<UInt8>) {
        guard octets.count == 6 else { return nil }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for octet in octets {
            value |= UInt64(octet) << shift
            shift += 8
        }
        rawValue = value
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (either case, `:` or `-` between octets).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == "-" }
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let octet = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(octet)
        }
        rawValue = value
    }

    /// Octets in display order.
    public var octets: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> UInt64(40 - 8 * $0)) }
    }

    /// Octets least significant first, as HCI wants them.
    public var littleEndianOctets: [UInt8] { octets.reversed() }

    public var description: String {
        octets.map { hexByte($0, uppercase: true) }.joined(separator: ":")
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

public typealias BluetoothAddress = HardwareAddress
public typealias BSSID = HardwareAddress

/// Two hex digits for one octet; the standard library has no padded formatter.
@inlinable
public func hexByte(_ byte: UInt8, uppercase: Bool = false) -> String {
    // The digits are computed: Debian's Swift 6.2.3 for aarch64 (-O) compiled the earlier
    // `uppercase ? [upper digits] : [lower digits]` the wrong way round (packaging/arm64/README.md).
    let letterA = uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
    func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : letterA + (nibble - 10) }
    return String(decoding: [digit(byte >> 4), digit(byte & 0x0F)], as: UTF8.self)
}

/// Lowercase hex of a byte string, no separators (`0a1bff`).
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { hexByte($0) }.joined()
}

/// Parses hex with no separators; nil for an odd length or a non-hex digit.
public func bytes(fromHex text: some StringProtocol) -> [UInt8]? {
    // The digits read where the text keeps them (a native String keeps them
    // together): iterating its UTF-8 view cost ~400 instructions a descriptor
    // field (callgrind, issue 25).
    if let octets = text.utf8.withContiguousStorageIfAvailable({ octets(fromHexDigits: $0) }) { return octets }
    return Array(text.utf8).withUnsafeBufferPointer { octets(fromHexDigits: $0) }
}

private func octets(fromHexDigits digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
        guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
        out.append(high << 4 | low)
        index += 2
    }
    return out
}

private func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
