/// Writes btsnoop captures that `btmon -r` and Wireshark read: for tests, and
/// for the daemon's capture feature, which writes `header` once and then one
/// `encode(_:)` per packet as it goes.
public struct BtsnoopWriter: Sendable {
    public let datalink: BtsnoopDatalink

    public init(datalink: BtsnoopDatalink = .linuxMonitor) {
        self.datalink = datalink
    }

    /// The 16-octet file header.
    public var header: [UInt8] {
        BtsnoopReader.magic + bigEndian(BtsnoopReader.version) + bigEndian(datalink.rawValue)
    }

    /// One record. In H4 files only HCI packets can be said; each record's
    /// packet gets its indicator back and the controller index is dropped.
    public func encode(_ record: BtsnoopRecord) throws(BtsnoopError) -> [UInt8] {
        let packet: [UInt8]
        let flags: UInt32
        // Counted wide so that no length a caller can put in a record overflows here.
        var originalLength = UInt64(clamping: max(record.originalLength, record.packet.count))
        switch datalink {
        case .linuxMonitor:
            packet = record.packet
            flags = UInt32(record.controllerIndex ?? BtsnoopRecord.noControllerIndex) << 16 | UInt32(record.opcode.rawValue)
        case .hciUART:
            guard let (indicator, h4Flags) = BtsnoopH4Mapping.indicatorAndFlags(for: record.opcode) else {
                throw .recordNotRepresentable(record.opcode, datalink)
            }
            packet = [indicator.rawValue] + record.packet
            flags = h4Flags
            originalLength += 1
        }
        guard let included = UInt32(exactly: packet.count), let original = UInt32(exactly: originalLength) else {
            throw .recordTooLong(length: Int(clamping: originalLength))
        }
        return bigEndian(original) + bigEndian(included) + bigEndian(flags) + bigEndian(record.cumulativeDrops)
            + bigEndian(UInt64(bitPattern: record.timestamp)) + packet
    }

    /// A whole file: the header and every record.
    public func file(_ records: [BtsnoopRecord]) throws(BtsnoopError) -> [UInt8] {
        var bytes = header
        for record in records { bytes += try encode(record) }
        return bytes
    }
}

private func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
