/// Reads a btsnoop capture (`btmon -w`, Android's HCI snoop log) record by
/// record, so the HCI events of a capture can be replayed through the same
/// decoding path as a live socket.
///
/// File layout (all integers big endian): `btsnoop\0`, version 1, datalink;
/// then records of original length, included length, flags, cumulative
/// drops, a 64-bit timestamp and the included packet octets.
public struct BtsnoopReader: Sendable {
    public let datalink: BtsnoopDatalink
    /// The whole capture; records are read where they lie.
    public let bytes: [UInt8]
    /// Where the next record starts.
    private var offset: Int

    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let version: UInt32 = 1
    static let fileHeaderLength = 16
    static let recordHeaderLength = 24

    /// Checks the file header; records are read with `next()`.
    public init(_ bytes: some Collection<UInt8>) throws(BtsnoopError) {
        try self.init(Array(bytes))
    }

    /// Checks the file header; the capture's storage is shared, not copied.
    public init(_ bytes: [UInt8]) throws(BtsnoopError) {
        guard bytes.count >= Self.fileHeaderLength else { throw .truncatedFileHeader(length: bytes.count) }
        let magic = Array(bytes[0..<8])
        guard magic == Self.magic else { throw .badMagic(magic) }
        let version = Self.uint32(bytes, at: 8)
        guard version == Self.version else { throw .unsupportedVersion(version) }
        let rawDatalink = Self.uint32(bytes, at: 12)
        guard let datalink = BtsnoopDatalink(rawValue: rawDatalink) else { throw .unsupportedDatalink(rawDatalink) }
        self.datalink = datalink
        self.bytes = bytes
        offset = Self.fileHeaderLength
    }

    /// The next record, or nil at the end of the file. After an error the
    /// reader stays at the bad record; the records before it remain valid.
    public mutating func next() throws(BtsnoopError) -> BtsnoopRecord? {
        try nextLocation().map(record(at:))
    }

    /// `next()` without copying the packet out of the capture.
    public mutating func nextLocation() throws(BtsnoopError) -> BtsnoopRecordLocation? {
        let offset = offset
        let available = bytes.count - offset
        guard available > 0 else { return nil }
        guard available >= Self.recordHeaderLength else {
            throw .truncatedRecordHeader(offset: offset, available: available)
        }
        let originalLength = Self.uint32(bytes, at: offset)
        let includedLength = Self.uint32(bytes, at: offset + 4)
        let flags = Self.uint32(bytes, at: offset + 8)
        let drops = Self.uint32(bytes, at: offset + 12)
        let timestamp = Int64(bitPattern: Self.uint64(bytes, at: offset + 16))
        guard includedLength <= originalLength else {
            throw .includedLengthExceedsOriginal(offset: offset, includedLength: includedLength, originalLength: originalLength)
        }
        let packetStart = offset + Self.recordHeaderLength
        // Int(exactly:) matters on 32-bit boards, where a length near 4 GiB does not fit.
        guard let count = Int(exactly: includedLength), count <= bytes.count - packetStart else {
            throw .recordLengthPastEnd(offset: offset, includedLength: includedLength, available: bytes.count - packetStart)
        }
        let packet = packetStart..<(packetStart + count)

        let location: BtsnoopRecordLocation
        switch datalink {
        case .linuxMonitor:
            let index = UInt16(truncatingIfNeeded: flags >> 16)
            location = BtsnoopRecordLocation(
                timestamp: timestamp,
                controllerIndex: index == BtsnoopRecord.noControllerIndex ? nil : index,
                opcode: HCIMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: flags)),
                packet: packet, originalLength: Int(clamping: originalLength), cumulativeDrops: drops)
        case .hciUART:
            guard !packet.isEmpty else { throw .emptyH4Record(offset: offset) }
            let indicator = bytes[packet.lowerBound]
            guard let opcode = BtsnoopH4Mapping.opcode(indicator: indicator, flags: flags) else {
                throw .unknownH4Indicator(offset: offset, indicator: indicator)
            }
            // H4 has one controller per file and counts the indicator in the lengths.
            location = BtsnoopRecordLocation(
                timestamp: timestamp, controllerIndex: nil, opcode: opcode,
                packet: (packet.lowerBound + 1)..<packet.upperBound, originalLength: Int(clamping: originalLength) - 1,
                cumulativeDrops: drops)
        }
        self.offset = packet.upperBound
        return location
    }

    /// The record `nextLocation()` found there, its packet copied out.
    public func record(at location: BtsnoopRecordLocation) -> BtsnoopRecord {
        BtsnoopRecord(
            timestamp: location.timestamp, controllerIndex: location.controllerIndex, opcode: location.opcode,
            packet: Array(bytes[location.packet]), originalLength: location.originalLength,
            cumulativeDrops: location.cumulativeDrops)
    }

    /// Every record of a capture, or the first error.
    public static func records(in bytes: some Collection<UInt8>) throws(BtsnoopError) -> [BtsnoopRecord] {
        var reader = try BtsnoopReader(bytes)
        var records: [BtsnoopRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// Big-endian fields at an offset the caller has checked is in the file.
    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    private static func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
}
