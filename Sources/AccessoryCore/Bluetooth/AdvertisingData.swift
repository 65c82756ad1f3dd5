/// The content of a Bluetooth LE advertisement or scan response, parsed from its
/// AD structures (Core Spec Supplement Part A). The codec fills this in; Core matches on it.
public struct AdvertisingData: Hashable, Sendable {
    /// AD type 0x01.
    public var flags: UInt8?
    /// AD type 0x09, raw bytes: names on the air are not always valid UTF-8.
    /// The parser removes NUL padding at the end.
    public var completeLocalName: [UInt8]?
    /// AD type 0x08, likewise.
    public var shortenedLocalName: [UInt8]?
    /// AD types 0x03, 0x05, 0x07: the lists marked complete, in the order heard.
    public var completeServiceUUIDs: [BluetoothUUID]
    /// AD types 0x02, 0x04, 0x06: the lists marked incomplete, in the order heard.
    public var incompleteServiceUUIDs: [BluetoothUUID]
    /// AD types 0x16, 0x20, 0x21: service data keyed by its UUID (the bytes after the UUID).
    public var serviceData: [BluetoothUUID: [UInt8]]
    /// AD type 0xFF: every manufacturer data value heard, keyed by company
    /// identifier (the bytes after the id), in the order heard, without
    /// repeats. A device may send one company's structure twice with
    /// different content; a descriptor matches if any of the values does.
    public var manufacturerDataValues: [UInt16: [[UInt8]]]
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
        manufacturerDataValues: [UInt16: [[UInt8]]] = [:],
        appearance: UInt16? = nil,
        txPowerLevel: Int8? = nil
    ) {
        self.flags = flags
        self.completeLocalName = completeLocalName
        self.shortenedLocalName = shortenedLocalName
        self.completeServiceUUIDs = completeServiceUUIDs
        self.incompleteServiceUUIDs = incompleteServiceUUIDs
        self.serviceData = serviceData
        self.manufacturerDataValues = manufacturerDataValues
        for (company, value) in manufacturerData { self.addManufacturerData(value, for: company) }
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

    /// One value per company: the first heard. Setting it replaces every
    /// value of the companies given (and drops the others). Matching and the
    /// monitor read `manufacturerDataValues`, which has them all.
    public var manufacturerData: [UInt16: [UInt8]] {
        get { manufacturerDataValues.compactMapValues(\.first) }
        set { manufacturerDataValues = newValue.mapValues { [$0] } }
    }

    /// Adds one manufacturer data value of `company`, unless the same bytes are already there.
    public mutating func addManufacturerData(_ value: [UInt8], for company: UInt16) {
        // Through the subscript's modify accessor, so the values array is changed in place, not copied.
        manufacturerDataValues[company, default: []].appendIfMissing(value)
    }

    /// How many companies' manufacturer data, and how many service-data
    /// UUIDs, `overlay` lets a merge hold. A device that keeps sending new
    /// keys would otherwise make its merged data, and every match of it,
    /// grow without bound; past the limit the merge starts over from the
    /// newest packet's keys.
    public static let mergedKeyLimit = 8

    /// A newer packet of the same kind (advertising PDU after advertising
    /// PDU, scan response after scan response) over this one: every field
    /// `newer` carries replaces this one's (a UUID list as a whole, service
    /// data per UUID, manufacturer data per company with all its values);
    /// what it lacks is kept, so a device alternating two payloads shows both.
    /// Service data and manufacturer data keep at most `mergedKeyLimit` keys
    /// (or the newest packet's, if it alone has more): past it, only the newest packet's stay.
    public func overlaying(_ newer: AdvertisingData) -> AdvertisingData {
        var merged = self
        merged.overlay(newer)
        return merged
    }

    /// `overlaying(_:)` in place: a uniquely held value's tables are updated, not copied.
    public mutating func overlay(_ newer: AdvertisingData) {
        flags = newer.flags ?? flags
        completeLocalName = newer.completeLocalName ?? completeLocalName
        shortenedLocalName = newer.shortenedLocalName ?? shortenedLocalName
        if !newer.completeServiceUUIDs.isEmpty { completeServiceUUIDs = newer.completeServiceUUIDs }
        if !newer.incompleteServiceUUIDs.isEmpty { incompleteServiceUUIDs = newer.incompleteServiceUUIDs }
        Self.overlay(&serviceData, with: newer.serviceData)
        Self.overlay(&manufacturerDataValues, with: newer.manufacturerDataValues)
        appearance = newer.appearance ?? appearance
        txPowerLevel = newer.txPowerLevel ?? txPowerLevel
    }

    /// Newer values per key, bounded by `mergedKeyLimit`.
    private static func overlay<Key, Value>(_ table: inout [Key: Value], with newer: [Key: Value]) {
        if newer.isEmpty { return }
        table.merge(newer) { _, new in new }
        if table.count > mergedKeyLimit { table = newer }
    }

    /// This advertisement with its scan response added, field by field:
    /// each service UUID list is the union (this one's order first, then the
    /// response's new UUIDs, no repeats); service data and manufacturer data
    /// are added per key, and a company in both keeps every value (this
    /// one's first); for a UUID in both service data, and for the
    /// single-valued fields (flags, names, appearance, TX power), this one's
    /// value stands and the response's fills what it lacks. The result does
    /// not depend on which packet was heard last, so it does not flip.
    public func adding(_ scanResponse: AdvertisingData) -> AdvertisingData {
        var merged = self
        merged.flags = flags ?? scanResponse.flags
        merged.completeLocalName = completeLocalName ?? scanResponse.completeLocalName
        merged.shortenedLocalName = shortenedLocalName ?? scanResponse.shortenedLocalName
        merged.completeServiceUUIDs = Self.union(completeServiceUUIDs, scanResponse.completeServiceUUIDs)
        merged.incompleteServiceUUIDs = Self.union(incompleteServiceUUIDs, scanResponse.incompleteServiceUUIDs)
        merged.serviceData.merge(scanResponse.serviceData) { mine, _ in mine }
        for (company, values) in scanResponse.manufacturerDataValues {
            for value in values { merged.addManufacturerData(value, for: company) }
        }
        merged.appearance = appearance ?? scanResponse.appearance
        merged.txPowerLevel = txPowerLevel ?? scanResponse.txPowerLevel
        return merged
    }

    /// `first`, then the elements of `second` not already present.
    private static func union(_ first: [BluetoothUUID], _ second: [BluetoothUUID]) -> [BluetoothUUID] {
        var result = first
        var seen = Set(first)
        for uuid in second where seen.insert(uuid).inserted { result.append(uuid) }
        return result
    }
}

extension Array where Element: Equatable {
    /// Appends `element` unless an equal one is already there.
    mutating func appendIfMissing(_ element: Element) {
        if !contains(element) { append(element) }
    }
}
