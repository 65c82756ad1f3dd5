import AccessoryCore

/// Why AD structures (Core Spec Vol 3 Part C §11, Supplement Part A) could not be parsed.
/// Offsets count from the start of the data given to the parser.
public enum ADParsingError: Error, Hashable, Sendable {
    /// The structure at `offset` claims `length` octets but only `available` follow its length octet.
    case structureLengthPastEnd(offset: Int, length: Int, available: Int)
    /// A service UUID list whose payload is not a whole number of UUIDs of its width.
    case invalidUUIDListLength(type: UInt8, offset: Int, payloadLength: Int)
    /// Service data shorter than its UUID.
    case serviceDataTooShort(type: UInt8, offset: Int, payloadLength: Int)
    /// Manufacturer data shorter than its 2-octet company identifier.
    case manufacturerDataTooShort(offset: Int, payloadLength: Int)
    /// Appearance is not exactly 2 octets.
    case invalidAppearanceLength(offset: Int, payloadLength: Int)
    /// TX Power Level is not exactly 1 octet.
    case invalidTXPowerLevelLength(offset: Int, payloadLength: Int)
}

/// Parses the AD structures of an advertisement or scan response into Core's
/// `AdvertisingData`. Each structure is a length octet, then that many
/// octets: a type and its payload.
public enum AdvertisingDataParser {
    /// AD type codes from the Assigned Numbers document.
    public enum ADType {
        public static let flags: UInt8 = 0x01
        public static let incompleteServiceUUIDs16: UInt8 = 0x02
        public static let completeServiceUUIDs16: UInt8 = 0x03
        public static let incompleteServiceUUIDs32: UInt8 = 0x04
        public static let completeServiceUUIDs32: UInt8 = 0x05
        public static let incompleteServiceUUIDs128: UInt8 = 0x06
        public static let completeServiceUUIDs128: UInt8 = 0x07
        public static let shortenedLocalName: UInt8 = 0x08
        public static let completeLocalName: UInt8 = 0x09
        public static let txPowerLevel: UInt8 = 0x0A
        public static let serviceData16: UInt8 = 0x16
        public static let appearance: UInt8 = 0x19
        public static let serviceData32: UInt8 = 0x20
        public static let serviceData128: UInt8 = 0x21
        public static let manufacturerSpecificData: UInt8 = 0xFF
    }

    /// A length octet of 0 ends the significant part: what follows (zero padding
    /// of a fixed-size buffer, typically) is ignored. Unknown AD types are skipped.
    /// When a type repeats, UUID lists accumulate; names, flags, appearance and TX
    /// power keep the last value; service and manufacturer data keep the last
    /// payload per UUID or company.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ADParsingError) -> AdvertisingData {
        let bytes = Array(bytes)
        var result = AdvertisingData()
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            let available = bytes.count - offset - 1
            guard length <= available else {
                throw .structureLengthPastEnd(offset: offset, length: length, available: available)
            }
            let type = bytes[offset + 1]
            let payload = Array(bytes[(offset + 2)..<(offset + 1 + length)])
            try apply(type: type, payload: payload, offset: offset, to: &result)
            offset += 1 + length
        }
        return result
    }

    private static func apply(
        type: UInt8, payload: [UInt8], offset: Int, to data: inout AdvertisingData
    ) throws(ADParsingError) {
        switch type {
        case ADType.flags:
            // Flags may run over several octets; every defined bit is in the first.
            data.flags = payload.first ?? 0
        case ADType.incompleteServiceUUIDs16, ADType.incompleteServiceUUIDs32, ADType.incompleteServiceUUIDs128:
            data.incompleteServiceUUIDs += try uuidList(type: type, payload: payload, offset: offset)
        case ADType.completeServiceUUIDs16, ADType.completeServiceUUIDs32, ADType.completeServiceUUIDs128:
            data.completeServiceUUIDs += try uuidList(type: type, payload: payload, offset: offset)
        case ADType.shortenedLocalName:
            data.shortenedLocalName = payload
        case ADType.completeLocalName:
            data.completeLocalName = payload
        case ADType.txPowerLevel:
            guard payload.count == 1 else { throw .invalidTXPowerLevelLength(offset: offset, payloadLength: payload.count) }
            data.txPowerLevel = Int8(bitPattern: payload[0])
        case ADType.appearance:
            guard payload.count == 2 else { throw .invalidAppearanceLength(offset: offset, payloadLength: payload.count) }
            data.appearance = UInt16(payload[0]) | UInt16(payload[1]) << 8
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            let width = type == ADType.serviceData16 ? 2 : type == ADType.serviceData32 ? 4 : 16
            guard payload.count >= width, let uuid = BluetoothUUID(littleEndianBytes: payload[0..<width]) else {
                throw .serviceDataTooShort(type: type, offset: offset, payloadLength: payload.count)
            }
            data.serviceData[uuid] = Array(payload[width...])
        case ADType.manufacturerSpecificData:
            guard payload.count >= 2 else { throw .manufacturerDataTooShort(offset: offset, payloadLength: payload.count) }
            let company = UInt16(payload[0]) | UInt16(payload[1]) << 8
            data.manufacturerData[company] = Array(payload[2...])
        default:
            break
        }
    }

    private static func uuidList(type: UInt8, payload: [UInt8], offset: Int) throws(ADParsingError) -> [BluetoothUUID] {
        let width: Int
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.completeServiceUUIDs16: width = 2
        case ADType.incompleteServiceUUIDs32, ADType.completeServiceUUIDs32: width = 4
        default: width = 16
        }
        guard payload.count % width == 0 else {
            throw .invalidUUIDListLength(type: type, offset: offset, payloadLength: payload.count)
        }
        return stride(from: 0, to: payload.count, by: width).compactMap {
            BluetoothUUID(littleEndianBytes: payload[$0..<($0 + width)])
        }
    }
}
