import AccessoryCore
import AccessoryDecisions

/// Writes monitor lines as UTF-8 into a buffer, field by field, without a
/// String per field: `--monitor` prints a line for every report heard, and
/// building Strings cost more than all of discovery. The buffer is memory of
/// its own, written byte by byte with one bounds check each: an array's
/// append checked its uniqueness too, and that was a third of the line's cost.
/// The buffer and the scratch tables keep their storage from line to line,
/// so a steady stream of lines allocates nothing. `MonitorLine` documents the
/// format; its String forms are decoded from these bytes.
final class MonitorLineEncoder {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes the lines written so far take.
    private(set) var count = 0
    /// The UUIDs of this line's `uuids=` are the first `listedCount`; the
    /// storage stays from line to line, and clearing it is a store (an
    /// Array's removeAll was ~80 instructions a line, callgrind, issue 25).
    private var listedUUIDs: [BluetoothUUID] = []
    private var listedCount = 0
    private var matchText: [UInt8] = []
    private var matchRanges: [Range<Int>] = []
    private let hex = HexDigitPairs()

    init() {
        capacity = 512
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
        hex.deallocate()
    }

    /// The lines written so far (each `append` adds one, without its newline).
    var bytes: [UInt8] {
        get { Array(UnsafeBufferPointer(start: storage, count: count)) }
        set {
            count = 0
            newValue.withUnsafeBytes { put(contentsOf: $0) }
        }
    }

    /// Calls `body` with the lines written so far, where they lie.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Forgets the lines written so far; the storage stays.
    func removeAll() { count = 0 }

    /// Ends the line with a newline.
    func appendNewline() { put(UInt8(ascii: "\n")) }

    @inline(__always)
    private func put(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        storage[count] = byte
        count &+= 1
    }

    @inline(__always)
    private func put(contentsOf source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress else { return }
        put(from: base, count: source.count)
    }

    @inline(__always)
    private func put(from source: UnsafeRawPointer, count length: Int) {
        if count + length > capacity { grow(toAtLeast: count + length) }
        UnsafeMutableRawPointer(storage + count).copyMemory(from: source, byteCount: length)
        count += length
    }

    /// Makes room for `length` bytes once and hands `write` where they go:
    /// digits written this way cost a tenth of a `put` each, which reloaded
    /// and checked the buffer for every one (hex was a fifth of the
    /// monitor's instructions per report, callgrind, issue 25).
    @inline(__always)
    private func put(_ length: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void) {
        if count + length > capacity { grow(toAtLeast: count + length) }
        write(storage + count)
        count += length
    }

    private func put(contentsOf source: some Sequence<UInt8>) {
        for byte in source { put(byte) }
    }

    private func grow(toAtLeast needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    func append(_ sighting: DiscoveryPipeline.Sighting) {
        switch sighting {
        case .bluetooth(let advertisement, let matches):
            append(advertisement)
            append(matches)
        case .wifi(let network, let matches):
            // A BSS is heard once per scan, not per report: its String form is cheap enough.
            append(text: MonitorLine.wifi(network))
            append(matches)
        }
    }

    // MARK: Bluetooth

    func append(_ advertisement: Advertisement) {
        // Literals joined where the line allows: each is a copy call of its own.
        if let index = advertisement.controllerIndex {
            append("bluetooth hci")
            appendDecimal(Int(index))
        } else {
            append("bluetooth replay")
        }
        put(UInt8(ascii: " "))
        append(advertisement.device)
        append(" rssi=")
        if let rssi = advertisement.rssi { appendDecimal(Int(rssi)) } else { append("none") }
        if let txPower = advertisement.txPower ?? advertisement.data.txPowerLevel {
            append(" tx_power=")
            appendDecimal(Int(txPower))
        }
        switch (advertisement.isConnectable, advertisement.isScannable) {
        case (true, true): append(" connectable=yes scannable=yes")
        case (true, false): append(" connectable=yes scannable=no")
        case (false, true): append(" connectable=no scannable=yes")
        case (false, false): append(" connectable=no scannable=no")
        }
        // Every variable-length field is read where it lies, in one walk
        // (`forEachField`): the data's array and table forms would allocate
        // on every line. Its order is the line's: names, UUIDs, service data
        // ascending by UUID, manufacturer data by company with each company's
        // values in the order heard.
        listedCount = 0
        var wroteName = false
        var wroteServiceData = false
        var wroteManufacturerData = false
        advertisement.data.forEachField { field in
            switch field {
            case .name(let name, let isComplete):
                // The complete name when heard (it comes first), else the shortened one (`localNameBytes`).
                guard !wroteName else { return }
                wroteName = true
                append(isComplete ? " name=" : " short_name=")
                appendQuoted(name)
            case .serviceUUID(let uuid, _):
                appendListed(uuid)
            case .serviceData(let uuid, let value):
                // A comma is a byte, not a copy call: most values follow another.
                if wroteServiceData { put(UInt8(ascii: ",")) } else { append(" service_data=") }
                wroteServiceData = true
                append(uuid)
                put(UInt8(ascii: ":"))
                appendHex(value)
            case .manufacturerData(let company, let value):
                if wroteManufacturerData { put(UInt8(ascii: ",")) } else { append(" manufacturer=") }
                wroteManufacturerData = true
                appendHex16(company)
                put(UInt8(ascii: ":"))
                appendHex(value)
            }
        }
        if let appearance = advertisement.data.appearance {
            append(" appearance=0x")
            appendHex16(appearance)
        }
        if let flags = advertisement.data.flags {
            append(" flags=0x")
            appendHexByte(flags)
        }
    }

    /// A UUID of `uuids=`, listed as `AdvertisingData.serviceUUIDs` lists
    /// them: the complete list first, then the incomplete one, each UUID once
    /// (the ones written are kept in a scratch list that keeps its storage).
    private func appendListed(_ uuid: BluetoothUUID) {
        var position = 0
        while position < listedCount {
            if listedUUIDs[position] == uuid { return }
            position += 1
        }
        if listedCount == 0 { append(" uuids=") } else { put(UInt8(ascii: ",")) }
        if listedCount < listedUUIDs.count { listedUUIDs[listedCount] = uuid } else { listedUUIDs.append(uuid) }
        listedCount += 1
        append(uuid)
    }

    /// `C0:FF:EE:00:00:01/random`, as `BluetoothDeviceIdentifier.description`.
    private func append(_ device: BluetoothDeviceIdentifier) {
        let address = device.address.rawValue
        let pairs = hex.uppercase
        put(18) { out in
            let target = UnsafeMutableRawPointer(out)
            var octet = 0
            while octet < 6 {
                let byte = UInt8(truncatingIfNeeded: address >> UInt64(40 - 8 * octet))
                target.storeBytes(of: pairs[Int(byte)], toByteOffset: 3 * octet, as: UInt16.self)
                // A ':' after each octet but the last, which gets the '/' before the type.
                target.storeBytes(of: octet < 5 ? UInt8(ascii: ":") : UInt8(ascii: "/"), toByteOffset: 3 * octet + 2, as: UInt8.self)
                octet += 1
            }
        }
        // `BluetoothAddressType.description`'s words, without making its String.
        switch device.addressType {
        case .public: append("public")
        case .random: append("random")
        case .publicIdentity: append("public-identity")
        case .randomIdentity: append("random-identity")
        }
    }

    /// The canonical uppercase form, as `BluetoothUUID.description`: `180F`,
    /// `0000FE2C`-style never for a 16-bit alias, 8-4-4-4-12 otherwise.
    @inline(__always)
    private func append(_ uuid: BluetoothUUID) {
        // Each octet's two digits from a table in one store, as `appendHex`:
        // computed one by one they were ~400 instructions a UUID (callgrind, issue 25).
        let pairs = hex.uppercase
        if let short = uuid.shortValue {
            if short <= 0xFFFF {
                put(4) { out in
                    let target = UnsafeMutableRawPointer(out)
                    target.storeBytes(of: pairs[Int(UInt8(truncatingIfNeeded: short >> 8))], as: UInt16.self)
                    target.storeBytes(of: pairs[Int(UInt8(truncatingIfNeeded: short))], toByteOffset: 2, as: UInt16.self)
                }
            } else {
                put(8) { out in
                    let target = UnsafeMutableRawPointer(out)
                    var octet = 0
                    while octet < 4 {
                        let byte = UInt8(truncatingIfNeeded: short >> UInt32(24 - 8 * octet))
                        target.storeBytes(of: pairs[Int(byte)], toByteOffset: 2 * octet, as: UInt16.self)
                        octet += 1
                    }
                }
            }
            return
        }
        put(36) { out in
            let target = UnsafeMutableRawPointer(out)
            var position = 0
            var octet = 0
            while octet < 16 {
                if octet == 4 || octet == 6 || octet == 8 || octet == 10 {
                    target.storeBytes(of: UInt8(ascii: "-"), toByteOffset: position, as: UInt8.self)
                    position += 1
                }
                let half = octet < 8 ? uuid.high : uuid.low
                let byte = UInt8(truncatingIfNeeded: half >> UInt64(56 - 8 * (octet % 8)))
                target.storeBytes(of: pairs[Int(byte)], toByteOffset: position, as: UInt16.self)
                position += 2
                octet += 1
            }
        }
    }

    // MARK: Names from the air

    /// A name from the air in double quotes, always on one line (the rules
    /// are `MonitorLine.quoted`'s). Printable ASCII, what nearly every name
    /// is, is copied as it is; anything else goes the Unicode way.
    func appendQuoted(_ name: [UInt8]) {
        name.withUnsafeBytes { appendQuoted($0) }
    }

    func appendQuoted(_ name: UnsafeRawBufferPointer) {
        put(UInt8(ascii: "\""))
        if name.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            put(contentsOf: name)
        } else if name.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
            for byte in name {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { put(UInt8(ascii: "\\")) }
                put(byte)
            }
        } else if let text = String(validating: name, as: UTF8.self) {
            for scalar in text.unicodeScalars {
                if scalar == "\"" || scalar == "\\" {
                    put(UInt8(ascii: "\\"))
                    put(UInt8(truncatingIfNeeded: scalar.value))
                } else if Self.isEscaped(scalar) {
                    for byte in UTF8.encode(scalar)! { appendEscaped(byte) }
                } else {
                    put(contentsOf: UTF8.encode(scalar)!)
                }
            }
        } else {
            for byte in name {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    put(UInt8(ascii: "\\"))
                    put(byte)
                case 0x20...0x7E:
                    put(byte)
                default:
                    appendEscaped(byte)
                }
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// Characters that would break the line or hide what is there.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: true
        default: false
        }
    }

    private func appendEscaped(_ byte: UInt8) {
        append("\\x")
        appendHexByte(byte)
    }

    // MARK: Matches

    /// ` matches=` and the descriptors matched, by their descriptions
    /// (`app#id`) sorted as Strings sort; nothing when none matched.
    func append(_ matches: Set<DescriptorMatch>) {
        guard !matches.isEmpty else { return }
        append(" matches=")
        matchText.removeAll(keepingCapacity: true)
        matchRanges.removeAll(keepingCapacity: true)
        for match in matches {
            let start = matchText.count
            var app = match.app.rawValue
            app.withUTF8 { matchText.append(contentsOf: $0) }
            matchText.append(UInt8(ascii: "#"))
            Self.appendDecimal(match.descriptorID.rawValue, to: &matchText)
            matchRanges.append(start..<matchText.count)
        }
        if matchText.contains(where: { $0 >= 0x80 }) {
            // Strings sort by their normalized scalars, which the bytes of a
            // name that is not ASCII need not follow: sort those as Strings.
            append(text: matches.map(\.description).sorted().joined(separator: ","))
            return
        }
        let text = matchText
        matchRanges.sort { text[$0].lexicographicallyPrecedes(text[$1]) }
        for (position, range) in matchRanges.enumerated() {
            if position > 0 { put(UInt8(ascii: ",")) }
            text.withUnsafeBytes { put(contentsOf: UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
    }

    // MARK: Digits

    /// ASCII text given in the source (a literal resolves here, not to the String overload).
    @inline(__always)
    private func append(_ literal: StaticString) {
        literal.withUTF8Buffer { text in
            let length = text.count
            guard let source = text.baseAddress, length >= 4, length <= 16 else {
                put(contentsOf: UnsafeRawBufferPointer(text))
                return
            }
            // The line's literals are 4 to 16 bytes: two overlapping loads and
            // stores each, where a copy call cost ~20 instructions a field.
            let from = UnsafeRawPointer(source)
            put(length) { out in
                let target = UnsafeMutableRawPointer(out)
                if length >= 8 {
                    target.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    target.storeBytes(
                        of: from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8, as: UInt64.self)
                } else {
                    target.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                    target.storeBytes(
                        of: from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self), toByteOffset: length - 4, as: UInt32.self)
                }
            }
        }
    }

    private func append(text: String) {
        var text = text
        text.withUTF8 { put(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// Digits written from the last, into room made once: RSSI, TX power and
    /// the controller are one to three digits, and a `put` per digit behind a
    /// divisor search was ~100 instructions a number (callgrind, issue 25).
    @inline(__always)
    private func appendDecimal(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        put(digits) { out in
            var position = digits - 1
            repeat {
                out[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                position -= 1
            } while position >= 0
        }
    }

    private static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    @inline(__always)
    private func appendHex16(_ value: UInt16) {
        let pairs = hex.lowercase
        put(4) { out in
            let target = UnsafeMutableRawPointer(out)
            target.storeBytes(of: pairs[Int(UInt8(truncatingIfNeeded: value >> 8))], as: UInt16.self)
            target.storeBytes(of: pairs[Int(UInt8(truncatingIfNeeded: value))], toByteOffset: 2, as: UInt16.self)
        }
    }

    /// Lowercase hex, no separators, as `hexString`. Each byte's two digits
    /// come from a table as one store: data values are most of a line.
    @inline(__always)
    private func appendHex(_ value: UnsafeRawBufferPointer) {
        guard let source = value.baseAddress else { return }
        let length = value.count
        let pairs = hex.lowercase
        put(2 * length) { out in
            let target = UnsafeMutableRawPointer(out)
            var index = 0
            #if _endian(little)
            // Four bytes a round, their eight digits one store: a store per
            // byte was most of the cost of a line's data (callgrind, issue 25).
            while index + 4 <= length {
                let digits =
                    UInt64(pairs[Int(source.load(fromByteOffset: index, as: UInt8.self))])
                    | UInt64(pairs[Int(source.load(fromByteOffset: index + 1, as: UInt8.self))]) << 16
                    | UInt64(pairs[Int(source.load(fromByteOffset: index + 2, as: UInt8.self))]) << 32
                    | UInt64(pairs[Int(source.load(fromByteOffset: index + 3, as: UInt8.self))]) << 48
                target.storeBytes(of: digits, toByteOffset: 2 * index, as: UInt64.self)
                index += 4
            }
            #endif
            while index < length {
                let byte = source.load(fromByteOffset: index, as: UInt8.self)
                target.storeBytes(of: pairs[Int(byte)], toByteOffset: 2 * index, as: UInt16.self)
                index += 1
            }
        }
    }

    /// Two lowercase digits (flags, escaped octets).
    private func appendHexByte(_ byte: UInt8) {
        let pairs = hex.lowercase
        put(2) { UnsafeMutableRawPointer($0).storeBytes(of: pairs[Int(byte)], as: UInt16.self) }
    }
}
