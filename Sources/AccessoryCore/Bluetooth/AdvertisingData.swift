/// The content of a Bluetooth LE advertisement or scan response, parsed from its
/// AD structures (Core Spec Supplement Part A). The codec fills this in; Core matches on it.
public struct AdvertisingData: Hashable, Sendable {
    /// AD type 0x01.
    public var flags: UInt8?
    /// AD type 0x19.
    public var appearance: UInt16?
    /// AD type 0x0A, in dBm.
    public var txPowerLevel: Int8?
    /// Names, UUID lists, service data and manufacturer data, in one
    /// canonical buffer (see `ADRecords`): the properties below read and
    /// write it, matching reads it where it lies.
    var records = ADRecords()

    /// No content: where every parse starts.
    public init() {}

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
        self.appearance = appearance
        self.txPowerLevel = txPowerLevel
        // Only what is given: an empty value (every parse starts from one) costs nothing.
        if completeLocalName != nil { self.completeLocalName = completeLocalName }
        if shortenedLocalName != nil { self.shortenedLocalName = shortenedLocalName }
        if !completeServiceUUIDs.isEmpty { self.completeServiceUUIDs = completeServiceUUIDs }
        if !incompleteServiceUUIDs.isEmpty { self.incompleteServiceUUIDs = incompleteServiceUUIDs }
        if !serviceData.isEmpty { self.serviceData = serviceData }
        if !manufacturerDataValues.isEmpty { self.manufacturerDataValues = manufacturerDataValues }
        for (company, value) in manufacturerData { self.addManufacturerData(value, for: company) }
    }

    // MARK: The content as values

    /// AD type 0x09, raw bytes: names on the air are not always valid UTF-8.
    /// The parser removes NUL padding at the end.
    public var completeLocalName: [UInt8]? {
        get { records.withView { $0.single(ADRecords.Kind.completeName).map { Array($0) } } }
        set { set(ADRecords.Kind.completeName, newValue) }
    }

    /// AD type 0x08, likewise.
    public var shortenedLocalName: [UInt8]? {
        get { records.withView { $0.single(ADRecords.Kind.shortenedName).map { Array($0) } } }
        set { set(ADRecords.Kind.shortenedName, newValue) }
    }

    /// AD types 0x03, 0x05, 0x07: the lists marked complete, in the order heard.
    public var completeServiceUUIDs: [BluetoothUUID] {
        get { uuids(ADRecords.Kind.completeUUIDs) }
        set { setUUIDs(ADRecords.Kind.completeUUIDs, newValue) }
    }

    /// AD types 0x02, 0x04, 0x06: the lists marked incomplete, in the order heard.
    public var incompleteServiceUUIDs: [BluetoothUUID] {
        get { uuids(ADRecords.Kind.incompleteUUIDs) }
        set { setUUIDs(ADRecords.Kind.incompleteUUIDs, newValue) }
    }

    /// AD types 0x16, 0x20, 0x21: service data keyed by its UUID (the bytes after the UUID).
    public var serviceData: [BluetoothUUID: [UInt8]] {
        get {
            records.withView { view in
                var table: [BluetoothUUID: [UInt8]] = [:]
                var offset = view.start(of: ADRecords.Kind.serviceData)
                let end = view.section(ADRecords.Kind.serviceData).upperBound
                while offset < end {
                    table[view.uuid(atBodyOf: offset)] = Array(view.body(at: offset)[ADRecords.uuidSize...])
                    offset = view.end(ofRecordAt: offset)
                }
                return table
            }
        }
        set {
            records.resize(records.withView { $0.section(ADRecords.Kind.serviceData) }, to: 0)
            for (uuid, value) in newValue { value.withUnsafeBytes { setServiceData($0, for: uuid) } }
        }
    }

    /// AD type 0xFF: every manufacturer data value heard, keyed by company
    /// identifier (the bytes after the id), in the order heard, without
    /// repeats. A device may send one company's structure twice with
    /// different content; a descriptor matches if any of the values does.
    public var manufacturerDataValues: [UInt16: [[UInt8]]] {
        get {
            records.withView { view in
                var table: [UInt16: [[UInt8]]] = [:]
                var offset = view.start(of: ADRecords.Kind.manufacturerData)
                while offset < view.bytes.count {
                    table[view.company(at: offset), default: []].append(Array(view.manufacturerValue(at: offset)))
                    offset = view.end(ofRecordAt: offset)
                }
                return table
            }
        }
        set {
            records.resize(records.withView { $0.section(ADRecords.Kind.manufacturerData) }, to: 0)
            for (company, values) in newValue {
                for value in values { addManufacturerData(value, for: company) }
            }
        }
    }

    /// Every advertised service UUID, complete lists first, without repeats.
    public var serviceUUIDs: [BluetoothUUID] {
        var seen = Set<BluetoothUUID>()
        return (completeServiceUUIDs + incompleteServiceUUIDs).filter { seen.insert($0).inserted }
    }

    /// The best name heard: the complete one, else the shortened one.
    public var localNameBytes: [UInt8]? { records.withView { $0.localName.map { Array($0) } } }

    /// The name for display and for name matching; invalid UTF-8 becomes U+FFFD.
    public var localName: String? {
        records.withView { $0.localName.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// One value per company: the first heard. Setting it replaces every
    /// value of the companies given (and drops the others). Matching and the
    /// monitor read `manufacturerDataValues`, which has them all.
    public var manufacturerData: [UInt16: [UInt8]] {
        get { manufacturerDataValues.compactMapValues(\.first) }
        set { manufacturerDataValues = newValue.mapValues { [$0] } }
    }

    /// Adds one manufacturer data value of `company`, unless the same bytes are already there.
    public mutating func addManufacturerData(_ value: [UInt8], for company: UInt16) {
        value.withUnsafeBytes { addManufacturerData($0, for: company) }
    }

    private mutating func set(_ kind: UInt8, _ value: [UInt8]?) {
        if let value { value.withUnsafeBytes { records.set(kind, to: $0) } } else { records.set(kind, to: nil) }
    }

    private func uuids(_ kind: UInt8) -> [BluetoothUUID] {
        records.withView { view in
            var list: [BluetoothUUID] = []
            view.forEachUUID(in: kind) { uuid in
                list.append(uuid)
                return true
            }
            return list
        }
    }

    private mutating func setUUIDs(_ kind: UInt8, _ list: [BluetoothUUID]) {
        records.set(kind, to: nil)
        records.appendUUIDs(kind, count: list.count) { list[$0] }
    }

    // MARK: Filling it from borrowed bytes (the parser)

    /// Empties it, keeping its storage for the next parse.
    public mutating func removeAll() {
        flags = nil
        appearance = nil
        txPowerLevel = nil
        records.removeAll()
    }

    /// What a parse stores of one AD structure, for `storageSize(of:)`.
    public enum StoredStructure {
        case name(length: Int)
        case serviceUUIDs(count: Int)
        case serviceData(valueLength: Int)
        case manufacturerData(valueLength: Int)
    }

    /// The octets of storage a structure takes at most, so a parser can reserve them all at once.
    public static func storageSize(of structure: StoredStructure) -> Int {
        switch structure {
        case .name(let length): ADRecords.headerSize + length
        case .serviceUUIDs(let count): ADRecords.headerSize + count * ADRecords.uuidSize
        case .serviceData(let valueLength): ADRecords.headerSize + ADRecords.uuidSize + valueLength
        case .manufacturerData(let valueLength): ADRecords.headerSize + ADRecords.companySize + valueLength
        }
    }

    /// Makes room for `octets` of stored structures without growing again.
    public mutating func reserveStorage(_ octets: Int) { records.reserveCapacity(octets) }

    /// `removeAll()` then `reserveStorage(octets)`, in one check of the storage.
    public mutating func removeAll(reservingStorage octets: Int) {
        flags = nil
        appearance = nil
        txPowerLevel = nil
        records.removeAll(reservingCapacity: octets)
    }

    /// How many octets of storage one octet of AD takes at most once parsed:
    /// a structure of n octets (its length and type included) stores at most
    /// 8n, the most being a list of k 16-bit UUIDs, 2 + 2k octets stored in
    /// 5 + 16k. A bound a parser can reserve from the byte count alone.
    public static let storagePerADOctet = 8

    /// Sets the complete (or else the shortened) local name.
    public mutating func setLocalName(_ name: UnsafeRawBufferPointer, complete: Bool) {
        records.set(complete ? ADRecords.Kind.completeName : ADRecords.Kind.shortenedName, to: name)
    }

    /// Appends the UUIDs of a list payload, each `width` (2, 4 or 16)
    /// octets least significant first; a partial UUID at the end is ignored.
    public mutating func appendServiceUUIDs(littleEndian payload: UnsafeRawBufferPointer, width: Int, complete: Bool) {
        guard width == 2 || width == 4 || width == 16 else { return }
        records.appendUUIDs(complete ? ADRecords.Kind.completeUUIDs : ADRecords.Kind.incompleteUUIDs, count: payload.count / width) {
            Self.uuid(littleEndian: payload, at: $0 * width, width: width)
        }
    }

    /// The UUID of `width` octets at `offset`, least significant first.
    public static func uuid(littleEndian bytes: UnsafeRawBufferPointer, at offset: Int, width: Int) -> BluetoothUUID {
        // Whole loads for the three widths AD uses: a byte loop cost ~40
        // instructions a changed report (callgrind, issue 25).
        if width == 2 || width == 4 || width == 16 {
            // Checked, as an array's subscripts would be: the bytes are a radio's.
            precondition(offset >= 0 && width <= bytes.count - offset, "a UUID past the end of its bytes")
            if width == 16 {
                return BluetoothUUID(
                    high: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)),
                    low: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            }
            let value = width == 2
                ? UInt32(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
                : UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            return BluetoothUUID(uuid32: value)
        }
        // Any other width: its first octets (at most 8) as a 32-bit UUID, as before.
        var low: UInt64 = 0
        // While loops: an unoptimised build's range iterator allocates.
        var index = 0
        while index < min(width, 8) {
            low |= UInt64(bytes[offset + index]) << UInt64(8 * index)
            index += 1
        }
        return BluetoothUUID(uuid32: UInt32(truncatingIfNeeded: low))
    }

    /// Sets `uuid`'s service data, replacing what there was.
    public mutating func setServiceData(_ value: UnsafeRawBufferPointer, for uuid: BluetoothUUID) {
        records.setServiceData(value, for: uuid)
    }

    /// Adds one manufacturer data value of `company`, unless the same bytes are already there.
    public mutating func addManufacturerData(_ value: UnsafeRawBufferPointer, for company: UInt16) {
        records.addManufacturerData(value, for: company)
    }

    // MARK: Merging

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

    /// `overlaying(_:)` in place: a uniquely held value's storage is rewritten, not copied.
    public mutating func overlay(_ newer: AdvertisingData) {
        flags = newer.flags ?? flags
        appearance = newer.appearance ?? appearance
        txPowerLevel = newer.txPowerLevel ?? txPowerLevel
        if newer.records.isEmpty { return }
        newer.records.withView { records.overlay($0, keyLimit: Self.mergedKeyLimit) }
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
        merged.add(scanResponse)
        return merged
    }

    /// `adding(_:)` in place.
    public mutating func add(_ scanResponse: AdvertisingData) {
        flags = flags ?? scanResponse.flags
        appearance = appearance ?? scanResponse.appearance
        txPowerLevel = txPowerLevel ?? scanResponse.txPowerLevel
        if scanResponse.records.isEmpty { return }
        scanResponse.records.withView { source in
            var kind = ADRecords.Kind.completeName
            while kind <= ADRecords.Kind.shortenedName {
                if let body = source.single(kind), records.withView({ $0.single(kind) == nil }) {
                    records.set(kind, to: body)
                }
                kind += 1
            }
            while kind <= ADRecords.Kind.incompleteUUIDs {
                source.forEachUUID(in: kind) { uuid in
                    if !records.withView({ $0.listContains(kind, uuid) }) { records.appendUUIDs(kind, count: 1) { _ in uuid } }
                    return true
                }
                kind += 1
            }
            var offset = source.start(of: ADRecords.Kind.serviceData)
            while offset < source.bytes.count {
                let body = source.body(at: offset)
                if source.bytes[offset] == ADRecords.Kind.serviceData {
                    let uuid = source.uuid(atBodyOf: offset)
                    if records.withView({ $0.serviceData(uuid) == nil }) {
                        records.setServiceData(UnsafeRawBufferPointer(rebasing: body[ADRecords.uuidSize..<body.count]), for: uuid)
                    }
                } else {
                    records.addManufacturerData(source.manufacturerValue(at: offset), for: source.company(at: offset))
                }
                offset = source.end(ofRecordAt: offset)
            }
        }
    }

    /// This value becomes a copy of `other`, in this one's storage when it is unique and large enough.
    public mutating func assign(_ other: AdvertisingData) {
        flags = other.flags
        appearance = other.appearance
        txPowerLevel = other.txPowerLevel
        records.assign(other.records)
    }

    // MARK: Borrowed reading (matching)

    /// Calls `body` with each manufacturer data value where it lies (valid
    /// only during the call), ascending by company, each company's in the
    /// order heard: `manufacturerDataValues` without building a table.
    public func forEachManufacturerData(_ body: (UInt16, UnsafeRawBufferPointer) -> Void) {
        records.withView { view in
            var offset = view.start(of: ADRecords.Kind.manufacturerData)
            while offset < view.bytes.count {
                body(view.company(at: offset), view.manufacturerValue(at: offset))
                offset = view.end(ofRecordAt: offset)
            }
        }
    }

    /// Calls `body` with the stored structures where they lie.
    func withRecords<R>(_ body: (ADRecordView) throws -> R) rethrows -> R { try records.withView(body) }
}
