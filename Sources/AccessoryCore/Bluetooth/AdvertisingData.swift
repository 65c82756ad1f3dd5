/// The content of a Bluetooth LE advertisement or scan response, parsed from its
/// AD structures (Core Spec Supplement Part A). The codec fills this in; Core matches on it.
public struct AdvertisingData: Hashable, Sendable {
    /// AD type 0x01.
    public var flags: UInt8?
    /// AD type 0x09, raw bytes: names on the air are not always valid UTF-8.
    public var completeLocalName: [UInt8]?
    /// AD type 0x08.
    public var shortenedLocalName: [UInt8]?
    /// AD types 0x03, 0x05, 0x07: the lists marked complete, in the order heard.
    public var completeServiceUUIDs: [BluetoothUUID]
    /// AD types 0x02, 0x04, 0x06: the lists marked incomplete, in the order heard.
    public var incompleteServiceUUIDs: [BluetoothUUID]
    /// AD types 0x16, 0x20, 0x21: service data keyed by its UUID (the bytes after the UUID).
    public var serviceData: [BluetoothUUID: [UInt8]]
    /// AD type 0xFF: manufacturer data keyed by company identifier (the bytes after the id).
    public var manufacturerData: [UInt16: [UInt8]]
    /// AD type 0x19.
    public var appearance: UInt16?
    /// AD type 0x0A, in dBm.
    public var txPowerLevel: Int8?

    public init(
        flags: UInt8? = nil,
        completeLocalName: [UInt8]? = nil,
        shortenedLocalName: [UInt8]? = nil,
        completeServiceUUIDs: [BluetoothUUID] = [],
        incompleteServiceUUIDs: [BluetoothUUID] = [],
        serviceData: [BluetoothUUID: [UInt8]] = [:],
        manufacturerData: [UInt16: [UInt8]] = [:],
        appearance: UInt16? = nil,
        txPowerLevel: Int8? = nil
    ) {
        self.flags = flags
        self.completeLocalName = completeLocalName
        self.shortenedLocalName = shortenedLocalName
        self.completeServiceUUIDs = completeServiceUUIDs
        self.incompleteServiceUUIDs = incompleteServiceUUIDs
        self.serviceData = serviceData
        self.manufacturerData = manufacturerData
        self.appearance = appearance
        self.txPowerLevel = txPowerLevel
    }

    /// Every advertised service UUID, complete lists first, without repeats.
    public var serviceUUIDs: [BluetoothUUID] {
        var seen = Set<BluetoothUUID>()
        return (completeServiceUUIDs + incompleteServiceUUIDs).filter { seen.insert($0).inserted }
    }

    /// The best name heard: the complete one, else the shortened one.
    public var localNameBytes: [UInt8]? { completeLocalName ?? shortenedLocalName }

    /// The name for display and for name matching; invalid UTF-8 becomes U+FFFD.
    public var localName: String? { localNameBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// Overlays `other` (a scan response, or a newer packet from the same device):
    /// what `other` carries replaces what this has, what it lacks is kept.
    public func merging(_ other: AdvertisingData) -> AdvertisingData {
        var merged = self
        merged.flags = other.flags ?? flags
        merged.completeLocalName = other.completeLocalName ?? completeLocalName
        merged.shortenedLocalName = other.shortenedLocalName ?? shortenedLocalName
        if !other.completeServiceUUIDs.isEmpty { merged.completeServiceUUIDs = other.completeServiceUUIDs }
        if !other.incompleteServiceUUIDs.isEmpty { merged.incompleteServiceUUIDs = other.incompleteServiceUUIDs }
        merged.serviceData.merge(other.serviceData) { _, new in new }
        merged.manufacturerData.merge(other.manufacturerData) { _, new in new }
        merged.appearance = other.appearance ?? appearance
        merged.txPowerLevel = other.txPowerLevel ?? txPowerLevel
        return merged
    }
}
