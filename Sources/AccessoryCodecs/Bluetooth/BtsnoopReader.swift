import AccessoryATT
/// Reads a btsnoop capture (`btmon -w`, Android's HCI snoop log) record by
/// record, so the HCI events of a capture can be replayed through the same
/// decoding path as a live socket.
///
/// File layout (all integers big endian): `btsnoop\0`, version 1, datalink;
/// then records of original length, included length, flags, cumulative
/// drops, a 64-bit timestamp and the included packet octets.
public struct BtsnoopReader: Sendable {
    public let datalink: BtsnoopDatalink
    private var reader: BluetoothByteReader

    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let version: UInt32 = 1
    static let fileHeaderLength = 16
    static let recordHeaderLength = 24

    /// Checks the file header; records are read with `next()`.
    public init(_ bytes: some Collection<UInt8>) throws(BtsnoopError) {
        var reader = BluetoothByteReader(Array(bytes))
        guard reader.remainingCount >= Self.fileHeaderLength,
            let magic = reader.read(count: 8), let version = reader.readUInt32BE(),
            let rawDatalink = reader.readUInt32BE()
        else { throw .truncatedFileHeader(length: reader.remainingCount) }
        guard magic == Self.magic else { throw .badMagic(magic) }
        guard version == Self.version else { throw .unsupportedVersion(version) }
        guard let datalink = BtsnoopDatalink(rawValue: rawDatalink) else { throw .unsupportedDatalink(rawDatalink) }
        self.datalink = datalink
        self.reader = reader
    }

    /// The next record, or nil at the end of the file. After an error the
    /// reader stays at the bad record; the records before it remain valid.
    public mutating func next() throws(BtsnoopError) -> BtsnoopRecord? {
        guard !reader.isAtEnd else { return nil }
        var cursor = reader
        let offset = cursor.offset
        guard cursor.remainingCount >= Self.recordHeaderLength,
            let originalLength = cursor.readUInt32BE(), let includedLength = cursor.readUInt32BE(),
            let flags = cursor.readUInt32BE(), let drops = cursor.readUInt32BE(),
            let rawTimestamp = cursor.readUInt64BE()
        else { throw .truncatedRecordHeader(offset: offset, available: reader.remainingCount) }
        guard includedLength <= originalLength else {
            throw .includedLengthExceedsOriginal(offset: offset, includedLength: includedLength, originalLength: originalLength)
        }
        // Int(exactly:) matters on 32-bit boards, where a length near 4 GiB does not fit.
        guard let count = Int(exactly: includedLength), let packet = cursor.read(count: count) else {
            throw .recordLengthPastEnd(offset: offset, includedLength: includedLength, available: cursor.remainingCount)
        }

        let timestamp = Int64(bitPattern: rawTimestamp)
        let record: BtsnoopRecord
        switch datalink {
        case .linuxMonitor:
            let index = UInt16(truncatingIfNeeded: flags >> 16)
            record = BtsnoopRecord(
                timestamp: timestamp,
                controllerIndex: index == BtsnoopRecord.noControllerIndex ? nil : index,
                opcode: HCIMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: flags)),
                packet: packet, originalLength: Int(clamping: originalLength), cumulativeDrops: drops)
        case .hciUART:
            guard let indicator = packet.first else { throw .emptyH4Record(offset: offset) }
            guard let opcode = BtsnoopH4Mapping.opcode(indicator: indicator, flags: flags) else {
                throw .unknownH4Indicator(offset: offset, indicator: indicator)
            }
            // H4 has one controller per file and counts the indicator in the lengths.
            record = BtsnoopRecord(
                timestamp: timestamp, controllerIndex: nil, opcode: opcode,
                packet: Array(packet.dropFirst()), originalLength: Int(clamping: originalLength) - 1, cumulativeDrops: drops)
        }
        reader = cursor
        return record
    }

    /// Every record of a capture, or the first error.
    public static func records(in bytes: some Collection<UInt8>) throws(BtsnoopError) -> [BtsnoopRecord] {
        var reader = try BtsnoopReader(bytes)
        var records: [BtsnoopRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }
}
