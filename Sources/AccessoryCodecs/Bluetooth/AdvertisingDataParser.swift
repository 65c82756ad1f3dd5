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

/// What the lenient reading of AD structures gives: the data of every
/// structure it could read, and what it had to leave out, in order.
public struct ADReading: Hashable, Sendable {
    public var data: AdvertisingData
    /// One entry per structure left out; empty when the bytes were clean.
    public var damage: [ADParsingError]

    public init(data: AdvertisingData = AdvertisingData(), damage: [ADParsingError] = []) {
        self.data = data
        self.damage = damage
    }
}

/// Parses the AD structures of an advertisement or scan response into Core's
/// `AdvertisingData`. Each structure is a length octet, then that many
/// octets: a type and its payload.
///
/// Devices send damaged data (Qingping, Ruuvi and Sonoff sensors have been
/// seen with trailing junk or a last structure cut short), so `read` keeps
/// what it can, with two rules:
/// - A structure whose length runs past the end of the data ends the
///   reading: it is dropped (never read out of bounds) and nothing after it
///   can be framed; the structures before it are kept.
/// - A structure that fits but whose payload is wrong for its type (a UUID
///   list not a whole number of UUIDs, service data shorter than its UUID,
///   manufacturer data shorter than its company id, appearance not 2 octets,
///   TX power not 1 octet) is dropped whole, and reading goes on with the
///   next structure: its length octet still says where that one starts.
/// Each dropped structure is one entry in `ADReading.damage`. `parse` is the
/// strict form: the same reading, but any damage is an error.
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
    /// power keep the last value; service data keeps the last payload per UUID;
    /// manufacturer data keeps every distinct payload per company, in order.
    /// Trailing NULs of a name are removed. Linear in the input; never traps.
    public static func read(_ bytes: some Collection<UInt8>) -> ADReading {
        let bytes = Array(bytes)
        var reading = ADReading()
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            let available = bytes.count - offset - 1
            guard length <= available else {
                reading.damage.append(.structureLengthPastEnd(offset: offset, length: length, available: available))
                break
            }
            let type = bytes[offset + 1]
            let payload = bytes[(offset + 2)..<(offset + 1 + length)]
            do {
                try apply(type: type, payload: payload, offset: offset, to: &reading.data)
            } catch {
                reading.damage.append(error)
            }
            offset += 1 + length
        }
        return reading
    }

    /// The strict reading: the data, or the first damage `read` found.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ADParsingError) -> AdvertisingData {
        let reading = read(bytes)
        if let first = reading.damage.first { throw first }
        return reading.data
    }

    /// Applies one structure, or throws without touching `data`.
    private static func apply(
        type: UInt8, payload: ArraySlice<UInt8>, offset: Int, to data: inout AdvertisingData
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
            data.shortenedLocalName = withoutTrailingNULs(payload)
        case ADType.completeLocalName:
            data.completeLocalName = withoutTrailingNULs(payload)
        case ADType.txPowerLevel:
            guard payload.count == 1 else { throw .invalidTXPowerLevelLength(offset: offset, payloadLength: payload.count) }
            data.txPowerLevel = Int8(bitPattern: payload[payload.startIndex])
        case ADType.appearance:
            guard payload.count == 2 else { throw .invalidAppearanceLength(offset: offset, payloadLength: payload.count) }
            data.appearance = UInt16(payload[payload.startIndex]) | UInt16(payload[payload.startIndex + 1]) << 8
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            let width = type == ADType.serviceData16 ? 2 : type == ADType.serviceData32 ? 4 : 16
            guard payload.count >= width,
                let uuid = BluetoothUUID(littleEndianBytes: payload.prefix(width))
            else {
                throw .serviceDataTooShort(type: type, offset: offset, payloadLength: payload.count)
            }
            data.serviceData[uuid] = Array(payload.dropFirst(width))
        case ADType.manufacturerSpecificData:
            guard payload.count >= 2 else { throw .manufacturerDataTooShort(offset: offset, payloadLength: payload.count) }
            let company = UInt16(payload[payload.startIndex]) | UInt16(payload[payload.startIndex + 1]) << 8
            data.addManufacturerData(Array(payload.dropFirst(2)), for: company)
        default:
            break
        }
    }

    /// A name without the NUL padding some firmware leaves after it.
    private static func withoutTrailingNULs(_ name: ArraySlice<UInt8>) -> [UInt8] {
        var end = name.endIndex
        while end > name.startIndex, name[end - 1] == 0 { end -= 1 }
        return Array(name[name.startIndex..<end])
    }

    private static func uuidList(type: UInt8, payload: ArraySlice<UInt8>, offset: Int) throws(ADParsingError) -> [BluetoothUUID] {
        let width: Int
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.completeServiceUUIDs16: width = 2
        case ADType.incompleteServiceUUIDs32, ADType.completeServiceUUIDs32: width = 4
        default: width = 16
        }
        guard payload.count % width == 0 else {
            throw .invalidUUIDListLength(type: type, offset: offset, payloadLength: payload.count)
        }
        return stride(from: payload.startIndex, to: payload.endIndex, by: width).compactMap {
            BluetoothUUID(littleEndianBytes: payload[$0..<($0 + width)])
        }
    }
}
