/// A bounds-checked cursor over bytes for the Wi-Fi codecs.
///
/// Every read says how many bytes it needs and returns nil when fewer remain,
/// so a parser turns a short buffer into its own named error instead of trapping.
/// Offsets are relative to the start of `bytes`, whatever its slice indices are.
struct WiFiByteReader {
    let bytes: ArraySlice<UInt8>
    private(set) var offset = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { remaining == 0 }

    /// The next `count` bytes, consumed; nil (and nothing consumed) when fewer remain.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        let start = bytes.startIndex + offset
        offset += count
        return bytes[start..<start + count]
    }

    /// Skips up to `count` bytes; fewer when the buffer ends first.
    mutating func skip(upTo count: Int) {
        offset += min(max(count, 0), remaining)
    }

    mutating func takeRest() -> ArraySlice<UInt8> { take(remaining) ?? [] }

    mutating func readUInt8() -> UInt8? { take(1)?.first }

    mutating func readUInt16LittleEndian() -> UInt16? {
        take(2).map { Self.littleEndian($0) }
    }

    /// Netlink carries integers in the host's byte order.
    mutating func readUInt16HostOrder() -> UInt16? {
        take(2).map { Self.hostOrder($0) }
    }

    mutating func readUInt32HostOrder() -> UInt32? {
        take(4).map { Self.hostOrder($0) }
    }
}

extension WiFiByteReader {
    /// The integer whose little-endian representation is `bytes` (at most the type's width).
    /// Static rather than an extension on the integer types, so that another codec's
    /// helpers of the same name cannot collide with these in this module.
    static func littleEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ bytes: some Collection<UInt8>, as type: T.Type = T.self
    ) -> T {
        var value: T = 0
        for (index, byte) in bytes.prefix(T.bitWidth / 8).enumerated() {
            value |= T(byte) << (8 * index)
        }
        return value
    }

    /// The integer whose in-memory (host order) representation is `bytes`, as netlink sends it.
    static func hostOrder<T: FixedWidthInteger & UnsignedInteger>(
        _ bytes: some Collection<UInt8>, as type: T.Type = T.self
    ) -> T {
        #if _endian(big)
        return littleEndian(bytes, as: T.self).byteSwapped
        #else
        return littleEndian(bytes, as: T.self)
        #endif
    }

    /// The bytes of `value` in host order (for building netlink messages).
    static func hostOrderBytes<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> [UInt8] {
        #if _endian(big)
        let value = value.byteSwapped
        #endif
        return (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
