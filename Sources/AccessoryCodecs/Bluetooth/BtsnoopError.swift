/// Why a btsnoop file could not be read, or a record not written.
public enum BtsnoopError: Error, Hashable, Sendable {
    /// The file is shorter than the 16-octet header.
    case truncatedFileHeader(length: Int)
    /// The first 8 octets are not `btsnoop\0`.
    case badMagic([UInt8])
    case unsupportedVersion(UInt32)
    case unsupportedDatalink(UInt32)
    /// The file ends inside the 24-octet header of the record at `offset`.
    case truncatedRecordHeader(offset: Int, available: Int)
    /// The record at `offset` claims more packet octets than the file holds.
    case recordLengthPastEnd(offset: Int, includedLength: UInt32, available: Int)
    /// The record at `offset` includes more octets than the packet had.
    case includedLengthExceedsOriginal(offset: Int, includedLength: UInt32, originalLength: UInt32)
    /// An H4 record at `offset` without even its packet indicator.
    case emptyH4Record(offset: Int)
    case unknownH4Indicator(offset: Int, indicator: UInt8)
    /// The writer's datalink has no way to say what this record is (H4 has no index events).
    case recordNotRepresentable(HCIMonitorOpcode, BtsnoopDatalink)
    /// A packet longer than a record's 32-bit length can say.
    case recordTooLong(length: Int)
}
