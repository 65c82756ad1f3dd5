import AccessoryATT
import AccessoryCore

/// One report of an LE Advertising Report event (LE Meta subevent 0x02,
/// Core Spec Vol 4 Part E §7.7.65.2): a legacy advertising PDU or scan response.
public struct LEAdvertisingReport: Hashable, Sendable {
    /// The legacy PDU the report came from.
    public enum EventType: UInt8, Hashable, Sendable {
        case connectableUndirected = 0x00  // ADV_IND
        case connectableDirected = 0x01  // ADV_DIRECT_IND
        case scannableUndirected = 0x02  // ADV_SCAN_IND
        case nonConnectableUndirected = 0x03  // ADV_NONCONN_IND
        case scanResponse = 0x04  // SCAN_RSP
    }

    /// Legacy PDUs carry at most 31 octets of AD.
    public static let maximumDataLength = 31

    public var eventType: EventType
    public var device: BluetoothDeviceIdentifier
    /// The AD structures as heard, up to 31 octets.
    public var data: [UInt8]
    /// In dBm; nil when the controller sent 127 ("not available").
    public var rssi: Int8?

    public init(eventType: EventType, device: BluetoothDeviceIdentifier, data: [UInt8], rssi: Int8?) {
        self.eventType = eventType
        self.device = device
        self.data = data
        self.rssi = rssi
    }

    /// The same facts in the extended report's terms, always with `.legacy`.
    public var properties: AdvertisingProperties { Self.properties(of: eventType) }

    static func properties(of eventType: EventType) -> AdvertisingProperties {
        switch eventType {
        case .connectableUndirected: connectableUndirectedProperties
        case .connectableDirected: connectableDirectedProperties
        case .scannableUndirected: scannableUndirectedProperties
        case .nonConnectableUndirected: nonConnectableUndirectedProperties
        case .scanResponse: scanResponseProperties
        }
    }

    // Made once: an option set built from a literal on every report is an array in an unoptimised build.
    private static let connectableUndirectedProperties: AdvertisingProperties = [.legacy, .connectable, .scannable]
    private static let connectableDirectedProperties: AdvertisingProperties = [.legacy, .connectable, .directed]
    private static let scannableUndirectedProperties: AdvertisingProperties = [.legacy, .scannable]
    private static let nonConnectableUndirectedProperties: AdvertisingProperties = [.legacy]
    // A scan response only ever answers a scannable advertisement.
    private static let scanResponseProperties: AdvertisingProperties = [.legacy, .scannable, .scanResponse]

    /// Decodes the parameters after the subevent code: Num_Reports, then each
    /// report's fields in turn, as controllers and the Linux kernel lay them out.
    static func decodeReports(_ reader: inout BluetoothByteReader) throws(HCIDecodingError) -> [LEAdvertisingReport] {
        guard let count = reader.readUInt8() else { throw .noAdvertisingReports }
        guard count > 0 else { throw .noAdvertisingReports }
        var reports: [LEAdvertisingReport] = []
        for index in 0..<Int(count) {
            guard !reader.isAtEnd else { throw .reportCountExceedsData(declared: Int(count), found: index) }
            reports.append(try decodeOne(&reader, index: index))
        }
        guard reader.isAtEnd else { throw .trailingBytes(count: reader.remainingCount) }
        return reports
    }

    private static func decodeOne(_ reader: inout BluetoothByteReader, index: Int) throws(HCIDecodingError) -> LEAdvertisingReport {
        guard let rawEventType = reader.readUInt8() else { throw .truncatedAdvertisingReport(index: index, field: .eventType) }
        guard let eventType = EventType(rawValue: rawEventType) else {
            throw .unknownLegacyEventType(index: index, value: rawEventType)
        }
        guard let rawAddressType = reader.readUInt8() else {
            throw .truncatedAdvertisingReport(index: index, field: .addressType)
        }
        guard let addressType = BluetoothAddressType(rawValue: rawAddressType) else {
            throw .unknownAddressType(index: index, value: rawAddressType)
        }
        guard let address = reader.readAddress() else { throw .truncatedAdvertisingReport(index: index, field: .address) }
        guard let length = reader.readUInt8() else { throw .truncatedAdvertisingReport(index: index, field: .dataLength) }
        guard Int(length) <= maximumDataLength else { throw .advertisingDataTooLong(index: index, length: Int(length)) }
        guard let data = reader.read(count: Int(length)) else { throw .truncatedAdvertisingReport(index: index, field: .data) }
        guard let rssi = reader.readInt8() else { throw .truncatedAdvertisingReport(index: index, field: .rssi) }
        return LEAdvertisingReport(
            eventType: eventType,
            device: BluetoothDeviceIdentifier(address: address, addressType: addressType),
            data: data,
            rssi: rssi == hciNotAvailable ? nil : rssi)
    }
}

/// RSSI and TX power use 127 for "not available".
let hciNotAvailable: Int8 = 127
