import AccessoryCore

/// The fields of an advertisement a subscriber can use without knowing the
/// device: its names, TX power, service data and manufacturer data (as hex).
/// Decoded from the AD structures accessoryd hands the app; one linear pass,
/// a structure that runs past the end ends the walk (what came before is kept).
public struct AdvertisementFields: Hashable, Sendable {
    public var localName: String?
    public var txPower: Int?
    /// By UUID text as `BluetoothUUID` prints it (`180F`, or the full form).
    public var serviceData: [(uuid: String, hex: String)] = []
    /// By company identifier, four hex digits.
    public var manufacturerData: [(company: String, hex: String)] = []

    public init(adStructures data: [UInt8]) {
        var offset = 0
        while offset < data.count {
            let length = Int(data[offset])
            if length == 0 { break }
            let end = offset + 1 + length
            guard end <= data.count else { break }
            let type = data[offset + 1]
            let value = Array(data[(offset + 2)..<end])
            offset = end
            switch type {
            case 0x08 where localName == nil, 0x09:
                // Names are the device's text: only valid UTF-8 is kept.
                if let name = String(validating: value, as: UTF8.self) { localName = name }
            case 0x0A where value.count == 1:
                txPower = Int(Int8(bitPattern: value[0]))
            case 0x16 where value.count >= 2:
                let uuid = BluetoothUUID(uuid16: UInt16(value[0]) | UInt16(value[1]) << 8)
                serviceData.append((uuid.description, hexString(value.dropFirst(2))))
            case 0x20 where value.count >= 4:
                let raw = UInt32(value[0]) | UInt32(value[1]) << 8 | UInt32(value[2]) << 16 | UInt32(value[3]) << 24
                serviceData.append((BluetoothUUID(uuid32: raw).description, hexString(value.dropFirst(4))))
            case 0x21 where value.count >= 16:
                if let uuid = BluetoothUUID(littleEndianBytes: value.prefix(16)) {
                    serviceData.append((uuid.description, hexString(value.dropFirst(16))))
                }
            case 0xFF where value.count >= 2:
                let company = UInt16(value[0]) | UInt16(value[1]) << 8
                let digits = String(company, radix: 16)
                manufacturerData.append((String(repeating: "0", count: 4 - digits.count) + digits, hexString(value.dropFirst(2))))
            default: break
            }
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.localName == rhs.localName && lhs.txPower == rhs.txPower
            && lhs.serviceData.elementsEqual(rhs.serviceData, by: ==)
            && lhs.manufacturerData.elementsEqual(rhs.manufacturerData, by: ==)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(localName)
        hasher.combine(txPower)
        for (uuid, hex) in serviceData { hasher.combine(uuid); hasher.combine(hex) }
        for (company, hex) in manufacturerData { hasher.combine(company); hasher.combine(hex) }
    }
}
