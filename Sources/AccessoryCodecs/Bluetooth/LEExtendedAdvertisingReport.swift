import AccessoryATT
import AccessoryCore

/// One report of an LE Extended Advertising Report event (LE Meta subevent
/// 0x0D, Core Spec Vol 4 Part E §7.7.65.13). Long advertising data arrives as
/// several reports ("fragments"); `ExtendedAdvertisingReassembler` joins them.
public struct LEExtendedAdvertisingReport: Hashable, Sendable {
    /// Bits 5-6 of Event_Type: whether this report ends the advertisement's data.
    public enum DataStatus: UInt8, Hashable, Sendable {
        case complete = 0b00
        /// More fragments of the same advertisement follow.
        case incompleteMoreToCome = 0b01
        /// The controller gave up on the rest (it missed an AUX_CHAIN_IND, or ran out of room).
        case incompleteTruncated = 0b10
    }

    /// Event_Type bits 0-4 (connectable, scannable, directed, scan response, legacy),
    /// which AdvertisingProperties mirrors bit for bit.
    public var properties: AdvertisingProperties
    public var dataStatus: DataStatus
    /// Nil for an anonymous advertisement (Address_Type 0xFF): it carries no address.
    public var addressType: BluetoothAddressType?
    public var address: BluetoothAddress
    /// The PHY of the primary advertising channel (1M or Coded).
    public var primaryPHY: BluetoothPHY
    /// Nil when there was no secondary channel packet (legacy PDUs).
    public var secondaryPHY: BluetoothPHY?
    /// The advertising set (0...15); nil when the PDU had no ADI field.
    public var advertisingSID: UInt8?
    /// In dBm; nil for 127 ("not available").
    public var txPower: Int8?
    /// In dBm; nil for 127 ("not available").
    public var rssi: Int8?
    /// In 1.25 ms units; nil when the advertiser runs no periodic advertising.
    public var periodicAdvertisingInterval: UInt16?
    /// The target of a directed advertisement; nil when not directed.
    public var directAddress: DirectAddress?
    /// This fragment's AD octets (the whole advertisement once reassembled).
    public var data: [UInt8]

    /// Where a directed advertisement was aimed. The type is HCI's raw value:
    /// 0xFE means an unresolved resolvable private address.
    public struct DirectAddress: Hashable, Sendable {
        public var addressType: UInt8
        public var address: BluetoothAddress
        public init(addressType: UInt8, address: BluetoothAddress) {
            self.addressType = addressType
            self.address = address
        }
    }

    public init(
        properties: AdvertisingProperties,
        dataStatus: DataStatus = .complete,
        addressType: BluetoothAddressType?,
        address: BluetoothAddress,
        primaryPHY: BluetoothPHY = .le1M,
        secondaryPHY: BluetoothPHY? = nil,
        advertisingSID: UInt8? = nil,
        txPower: Int8? = nil,
        rssi: Int8? = nil,
        periodicAdvertisingInterval: UInt16? = nil,
        directAddress: DirectAddress? = nil,
        data: [UInt8]
    ) {
        self.properties = properties
        self.dataStatus = dataStatus
        self.addressType = addressType
        self.address = address
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.advertisingSID = advertisingSID
        self.txPower = txPower
        self.rssi = rssi
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddress = directAddress
        self.data = data
    }

    /// The advertiser's identity; nil when anonymous.
    public var device: BluetoothDeviceIdentifier? {
        addressType.map { BluetoothDeviceIdentifier(address: address, addressType: $0) }
    }

    /// Address_Type 0xFF: no address in the PDU.
    static let anonymousAddressType: UInt8 = 0xFF
    /// Advertising_SID 0xFF: no ADI field in the PDU.
    static let noSID: UInt8 = 0xFF

    /// Decodes the parameters after the subevent code: Num_Reports, then each report.
    static func decodeReports(_ reader: inout BluetoothByteReader) throws(HCIDecodingError) -> [LEExtendedAdvertisingReport] {
        guard let count = reader.readUInt8(), count > 0 else { throw .noAdvertisingReports }
        var reports: [LEExtendedAdvertisingReport] = []
        for index in 0..<Int(count) {
            guard !reader.isAtEnd else { throw .reportCountExceedsData(declared: Int(count), found: index) }
            reports.append(try decodeOne(&reader, index: index))
        }
        guard reader.isAtEnd else { throw .trailingBytes(count: reader.remainingCount) }
        return reports
    }

    private static func decodeOne(_ reader: inout BluetoothByteReader, index: Int) throws(HCIDecodingError) -> LEExtendedAdvertisingReport {
        func truncated(_ field: AdvertisingReportField) -> HCIDecodingError {
            .truncatedAdvertisingReport(index: index, field: field)
        }
        guard let eventType = reader.readUInt16LE() else { throw truncated(.eventType) }
        guard let dataStatus = DataStatus(rawValue: UInt8(truncatingIfNeeded: eventType >> 5) & 0b11) else {
            throw .reservedDataStatus(index: index)
        }
        guard let rawAddressType = reader.readUInt8() else { throw truncated(.addressType) }
        var addressType: BluetoothAddressType?
        if rawAddressType != anonymousAddressType {
            guard let known = BluetoothAddressType(rawValue: rawAddressType) else {
                throw .unknownAddressType(index: index, value: rawAddressType)
            }
            addressType = known
        }
        guard let address = reader.readAddress() else { throw truncated(.address) }
        guard let rawPrimaryPHY = reader.readUInt8() else { throw truncated(.primaryPHY) }
        // The primary channel is never 2M.
        guard let primaryPHY = BluetoothPHY(rawValue: rawPrimaryPHY), primaryPHY != .le2M else {
            throw .invalidPrimaryPHY(index: index, value: rawPrimaryPHY)
        }
        guard let rawSecondaryPHY = reader.readUInt8() else { throw truncated(.secondaryPHY) }
        var secondaryPHY: BluetoothPHY?
        if rawSecondaryPHY != 0 {
            guard let known = BluetoothPHY(rawValue: rawSecondaryPHY) else {
                throw .invalidSecondaryPHY(index: index, value: rawSecondaryPHY)
            }
            secondaryPHY = known
        }
        guard let sid = reader.readUInt8() else { throw truncated(.advertisingSID) }
        guard let txPower = reader.readInt8() else { throw truncated(.txPower) }
        guard let rssi = reader.readInt8() else { throw truncated(.rssi) }
        guard let interval = reader.readUInt16LE() else { throw truncated(.periodicAdvertisingInterval) }
        guard let directAddressType = reader.readUInt8() else { throw truncated(.directAddressType) }
        guard let directAddress = reader.readAddress() else { throw truncated(.directAddress) }
        guard let length = reader.readUInt8() else { throw truncated(.dataLength) }
        guard let data = reader.read(count: Int(length)) else { throw truncated(.data) }

        let properties = AdvertisingProperties(rawValue: UInt8(truncatingIfNeeded: eventType) & 0b1_1111)
        return LEExtendedAdvertisingReport(
            properties: properties,
            dataStatus: dataStatus,
            addressType: addressType,
            address: address,
            primaryPHY: primaryPHY,
            secondaryPHY: secondaryPHY,
            advertisingSID: sid == noSID ? nil : sid,
            txPower: txPower == hciNotAvailable ? nil : txPower,
            rssi: rssi == hciNotAvailable ? nil : rssi,
            periodicAdvertisingInterval: interval == 0 ? nil : interval,
            directAddress: properties.contains(.directed)
                ? DirectAddress(addressType: directAddressType, address: directAddress) : nil,
            data: data)
    }
}
