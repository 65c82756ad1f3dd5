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
    @inlinable
    public static func read(_ bytes: some Collection<UInt8>) -> ADReading {
        if let reading = bytes.withContiguousStorageIfAvailable({ read(bytesAt: UnsafeRawBufferPointer($0)) }) {
            return reading
        }
        return Array(bytes).withUnsafeBytes { read(bytesAt: $0) }
    }

    /// The same reading over borrowed bytes: nothing is copied but the values kept.
    public static func read(bytesAt bytes: UnsafeRawBufferPointer) -> ADReading {
        var reading = ADReading()
        // A new value, likely kept: sized exactly.
        read(bytesAt: bytes, into: &reading.data, damage: &reading.damage, reusing: false)
        return reading
    }

    /// The same reading into `data`, emptied first and its storage reused:
    /// a caller that keeps one value for every parse allocates nothing once
    /// that storage is large enough. Damage is appended to `damage`.
    public static func read(
        bytesAt bytes: UnsafeRawBufferPointer, into data: inout AdvertisingData, damage: inout [ADParsingError]
    ) {
        read(bytesAt: bytes, into: &data, damage: &damage, reusing: true)
    }

    private static func read(
        bytesAt bytes: UnsafeRawBufferPointer, into data: inout AdvertisingData, damage: inout [ADParsingError],
        reusing: Bool
    ) {
        empty(&data, for: bytes, reusing: reusing)
        let end = frame(bytes) { type, payload, offset in
            do throws(ADParsingError) {
                try check(type: type, payloadLength: payload.count, offset: offset)
                store(type: type, payload: payload, in: &data)
            } catch {
                damage.append(error)
            }
        }
        if let end { damage.append(end) }
    }

    /// `read(bytesAt:into:damage:)` of bytes `isClean` found clean, which
    /// it does not check again (~230 instructions a changed report, callgrind,
    /// issue 25). Given damaged bytes anyway, it never reads out of bounds,
    /// but what it keeps of a damaged structure is not `read`'s.
    public static func read(cleanBytesAt bytes: UnsafeRawBufferPointer, into data: inout AdvertisingData) {
        empty(&data, for: bytes, reusing: true)
        _ = frame(bytes) { type, payload, _ in store(type: type, payload: payload, in: &data) }
    }

    /// Empties `data` with room for what `bytes` can store: when `reusing`
    /// its storage, a bound from the byte count if that is small (a legacy
    /// payload's: the storage has it after the first, and a framing pass to
    /// size it is saved), else what the structures need, reserved at once:
    /// one allocation, if any.
    private static func empty(_ data: inout AdvertisingData, for bytes: UnsafeRawBufferPointer, reusing: Bool) {
        let bound = AdvertisingData.storagePerADOctet * bytes.count
        if reusing, bound <= 512 {
            data.removeAll(reservingStorage: bound)
            return
        }
        var needed = 0
        // An upper bound (a damaged structure may count too): not worth checking twice.
        _ = frame(bytes) { type, payload, _ in needed += storageSize(type: type, payloadLength: payload.count) }
        data.removeAll(reservingStorage: needed)
    }

    /// The strict reading: the data, or the first damage `read` found.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ADParsingError) -> AdvertisingData {
        let reading = read(bytes)
        if let first = reading.damage.first { throw first }
        return reading.data
    }

    /// Whether `read` would find no damage, found without building anything:
    /// a device re-sending the payload it sent last is checked this way, so
    /// its damage is still counted on every report.
    public static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var clean = true
        let end = frame(bytes) { type, payload, _ in
            if !fits(type: type, payloadLength: payload.count) { clean = false }
        }
        return clean && end == nil
    }

    /// Hands each structure that fits to `visit` (type, payload, offset of its
    /// length octet); returns the damage that ended the framing, if any.
    private static func frame(
        _ bytes: UnsafeRawBufferPointer, _ visit: (UInt8, UnsafeRawBufferPointer, Int) -> Void
    ) -> ADParsingError? {
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            let available = bytes.count - offset - 1
            guard length <= available else {
                return .structureLengthPastEnd(offset: offset, length: length, available: available)
            }
            visit(bytes[offset + 1], UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + 1 + length)]), offset)
            offset += 1 + length
        }
        return nil
    }

    /// Whether a structure's payload has the right length for its type: the
    /// one place the rules for dropping a structure are written. A plain
    /// test, inlined: `isClean` calling the throwing `check` for every
    /// structure cost ~60 instructions a report (callgrind, issue 25).
    @inline(__always)
    private static func fits(type: UInt8, payloadLength length: Int) -> Bool {
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.incompleteServiceUUIDs32, ADType.incompleteServiceUUIDs128,
            ADType.completeServiceUUIDs16, ADType.completeServiceUUIDs32, ADType.completeServiceUUIDs128:
            length % uuidWidth(type) == 0
        case ADType.txPowerLevel: length == 1
        case ADType.appearance: length == 2
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128: length >= uuidWidth(type)
        case ADType.manufacturerSpecificData: length >= 2
        default: true
        }
    }

    /// The damage a structure `fits` refuses is, for `read` to record.
    private static func check(type: UInt8, payloadLength length: Int, offset: Int) throws(ADParsingError) {
        if fits(type: type, payloadLength: length) { return }
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.incompleteServiceUUIDs32, ADType.incompleteServiceUUIDs128,
            ADType.completeServiceUUIDs16, ADType.completeServiceUUIDs32, ADType.completeServiceUUIDs128:
            throw .invalidUUIDListLength(type: type, offset: offset, payloadLength: length)
        case ADType.txPowerLevel: throw .invalidTXPowerLevelLength(offset: offset, payloadLength: length)
        case ADType.appearance: throw .invalidAppearanceLength(offset: offset, payloadLength: length)
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            throw .serviceDataTooShort(type: type, offset: offset, payloadLength: length)
        case ADType.manufacturerSpecificData: throw .manufacturerDataTooShort(offset: offset, payloadLength: length)
        default: return
        }
    }

    /// Applies one structure that passed `check`. Reads the payload by index
    /// only: an unoptimised build (the allocation test's) would allocate in
    /// a slice's generic subscript. Each fixed-size read is guarded again
    /// (`read(cleanBytesAt:into:)` does not call `check`): never out of bounds.
    private static func store(type: UInt8, payload: UnsafeRawBufferPointer, in data: inout AdvertisingData) {
        switch type {
        case ADType.flags:
            // Flags may run over several octets; every defined bit is in the first.
            data.flags = payload.count > 0 ? payload[0] : 0
        case ADType.incompleteServiceUUIDs16, ADType.incompleteServiceUUIDs32, ADType.incompleteServiceUUIDs128:
            data.appendServiceUUIDs(littleEndian: payload, width: uuidWidth(type), complete: false)
        case ADType.completeServiceUUIDs16, ADType.completeServiceUUIDs32, ADType.completeServiceUUIDs128:
            data.appendServiceUUIDs(littleEndian: payload, width: uuidWidth(type), complete: true)
        case ADType.shortenedLocalName:
            data.setLocalName(withoutTrailingNULs(payload), complete: false)
        case ADType.completeLocalName:
            data.setLocalName(withoutTrailingNULs(payload), complete: true)
        case ADType.txPowerLevel:
            guard payload.count >= 1 else { return }
            data.txPowerLevel = Int8(bitPattern: payload[0])
        case ADType.appearance:
            guard payload.count >= 2 else { return }
            data.appearance = UInt16(payload[0]) | UInt16(payload[1]) << 8
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            let width = uuidWidth(type)
            guard payload.count >= width else { return }
            data.setServiceData(
                UnsafeRawBufferPointer(rebasing: payload[width..<payload.count]),
                for: AdvertisingData.uuid(littleEndian: payload, at: 0, width: width))
        case ADType.manufacturerSpecificData:
            guard payload.count >= 2 else { return }
            let company = UInt16(payload[0]) | UInt16(payload[1]) << 8
            data.addManufacturerData(UnsafeRawBufferPointer(rebasing: payload[2..<payload.count]), for: company)
        default:
            break
        }
    }

    /// The storage a structure takes at most once stored (none for one `check` would drop).
    private static func storageSize(type: UInt8, payloadLength length: Int) -> Int {
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.incompleteServiceUUIDs32, ADType.incompleteServiceUUIDs128,
            ADType.completeServiceUUIDs16, ADType.completeServiceUUIDs32, ADType.completeServiceUUIDs128:
            AdvertisingData.storageSize(of: .serviceUUIDs(count: length / uuidWidth(type)))
        case ADType.shortenedLocalName, ADType.completeLocalName:
            AdvertisingData.storageSize(of: .name(length: length))
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            AdvertisingData.storageSize(of: .serviceData(valueLength: max(0, length - uuidWidth(type))))
        case ADType.manufacturerSpecificData:
            AdvertisingData.storageSize(of: .manufacturerData(valueLength: max(0, length - 2)))
        default:
            0
        }
    }

    /// The octets of one UUID in a list or before service data of `type`.
    private static func uuidWidth(_ type: UInt8) -> Int {
        switch type {
        case ADType.incompleteServiceUUIDs16, ADType.completeServiceUUIDs16, ADType.serviceData16: 2
        case ADType.incompleteServiceUUIDs32, ADType.completeServiceUUIDs32, ADType.serviceData32: 4
        default: 16
        }
    }

    /// A name without the NUL padding some firmware leaves after it.
    private static func withoutTrailingNULs(_ name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = name.count
        while end > 0, name[end - 1] == 0 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: name[0..<end])
    }
}
