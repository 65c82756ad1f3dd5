/// Why an HCI event could not be decoded. Each case names the field and what
/// was wrong with it, so a dropped event can be logged with a reason.
public enum HCIDecodingError: Error, Hashable, Sendable {
    /// Zero bytes.
    case emptyPacket
    /// An H4 packet whose indicator is not 0x04 (event).
    case notAnEvent(indicator: UInt8)
    /// Fewer than the two header octets (event code, parameter length).
    case truncatedHeader(length: Int)
    /// The header's parameter length disagrees with the number of octets after it.
    case parameterLengthMismatch(declared: Int, actual: Int)
    /// Command Complete shorter than its credits and opcode, or with no status.
    case truncatedCommandComplete(length: Int)
    /// Command Complete with a success status but fewer return octets than the command defines.
    case truncatedReturnParameters(opcode: HCIOpcode, expected: Int, actual: Int)
    /// Command Status is not exactly status, credits and opcode.
    case invalidCommandStatusLength(Int)
    /// Hardware Error without its hardware code.
    case truncatedHardwareError
    /// LE Meta event without a subevent code.
    case emptyLEMetaEvent
    /// Num_Reports is 0; the specification allows 1...25.
    case noAdvertisingReports
    /// Num_Reports promised more reports than the event holds.
    case reportCountExceedsData(declared: Int, found: Int)
    /// Report `index` (from 0) ends inside `field`.
    case truncatedAdvertisingReport(index: Int, field: AdvertisingReportField)
    /// A legacy report carries more than 31 data octets.
    case advertisingDataTooLong(index: Int, length: Int)
    /// A legacy report's event type is not one of ADV_IND...SCAN_RSP.
    case unknownLegacyEventType(index: Int, value: UInt8)
    case unknownAddressType(index: Int, value: UInt8)
    case invalidPrimaryPHY(index: Int, value: UInt8)
    case invalidSecondaryPHY(index: Int, value: UInt8)
    /// An extended report's data status is the reserved value 0b11.
    case reservedDataStatus(index: Int)
    /// Octets left over after the last report.
    case trailingBytes(count: Int)
}

/// The fields of an LE (extended) advertising report, for naming the one cut short.
public enum AdvertisingReportField: String, Hashable, Sendable {
    case eventType
    case addressType
    case address
    case primaryPHY
    case secondaryPHY
    case advertisingSID
    case txPower
    case rssi
    case periodicAdvertisingInterval
    case directAddressType
    case directAddress
    case dataLength
    case data
}
