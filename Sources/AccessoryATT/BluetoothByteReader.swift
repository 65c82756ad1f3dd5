import AccessoryCore

/// A cursor over untrusted bytes. Every read checks the remaining length and
/// answers nil instead of trapping, so each caller can name the field that was
/// cut short in its own error type. Shared (`package`) by the ATT decoder here
/// and the HCI and btsnoop decoders in AccessoryCodecs.
package struct BluetoothByteReader {
    private let bytes: [UInt8]
    /// Offset of the next unread byte from the start of `bytes`.
    package private(set) var offset: Int

    package init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
    }

    package var remainingCount: Int { bytes.count - offset }
    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func readUInt8() -> UInt8? {
        guard remainingCount >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func readInt8() -> Int8? {
        readUInt8().map { Int8(bitPattern: $0) }
    }

    /// HCI and AD fields are little endian.
    package mutating func readUInt16LE() -> UInt16? {
        guard let octets = read(count: 2) else { return nil }
        return UInt16(octets[0]) | UInt16(octets[1]) << 8
    }

    package mutating func readUInt24LE() -> UInt32? {
        guard let octets = read(count: 3) else { return nil }
        return UInt32(octets[0]) | UInt32(octets[1]) << 8 | UInt32(octets[2]) << 16
    }

    /// btsnoop fields are big endian.
    package mutating func readUInt32BE() -> UInt32? {
        guard let octets = read(count: 4) else { return nil }
        return octets.reduce(0) { $0 << 8 | UInt32($1) }
    }

    package mutating func readUInt64BE() -> UInt64? {
        guard let octets = read(count: 8) else { return nil }
        return octets.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next `count` bytes, or nil (reading nothing) when fewer remain.
    package mutating func read(count: Int) -> [UInt8]? {
        guard count >= 0, count <= remainingCount else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A `bdaddr_t`: six octets, least significant first.
    package mutating func readAddress() -> BluetoothAddress? {
        read(count: 6).flatMap { HardwareAddress(littleEndianOctets: $0) }
    }

    package mutating func readRemaining() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
