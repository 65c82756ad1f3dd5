/// The variable-length AD structures an `AdvertisingData` holds (names,
/// UUID lists, service data, manufacturer data), kept in one byte buffer in
/// a canonical order, so that equal content is equal bytes: a parse copies
/// the significant bytes once, matching reads them where they lie, and a
/// merge rewrites them in storage that is already there.
///
/// Each record is a kind octet, the length of its body as a little-endian
/// UInt32, then the body. Records are ordered by kind; within a kind:
/// - names (at most one each): the bytes;
/// - a UUID list (at most one per kind, never empty): 16 octets per UUID,
///   `high` then `low` in native order, in the order heard;
/// - service data: one record per UUID, ascending, body = UUID then value;
/// - manufacturer data: ascending by company, each company's values in the
///   order heard, without repeats; body = company (little-endian) then value.
struct ADRecords: Hashable, Sendable {
    enum Kind {
        static let completeName: UInt8 = 1
        static let shortenedName: UInt8 = 2
        static let completeUUIDs: UInt8 = 3
        static let incompleteUUIDs: UInt8 = 4
        static let serviceData: UInt8 = 5
        static let manufacturerData: UInt8 = 6
    }

    static let headerSize = 5
    static let uuidSize = 16
    static let companySize = 2

    var bytes = ADRecordBytes()

    var isEmpty: Bool { bytes.isEmpty }

    func withView<R>(_ body: (ADRecordView) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(ADRecordView(bytes: $0)) }
    }

    mutating func removeAll() { bytes.removeAll() }

    mutating func removeAll(reservingCapacity capacity: Int) { bytes.removeAll(reservingCapacity: capacity) }

    mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

    /// These records become a copy of `other`'s, in this buffer's storage when it is unique and large enough.
    mutating func assign(_ other: ADRecords) {
        bytes.removeAll()
        // Copied at once from a contiguous buffer: grown with zeros and then
        // copied over, each byte was written twice (~350 instructions a new
        // device past the registry's capacity, callgrind, issue 25).
        other.bytes.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Makes the bytes in `range` `count` long, moving what follows; the
    /// bytes of the new range are to be written by the caller.
    mutating func resize(_ range: Range<Int>, to count: Int) { bytes.resize(range, to: count) }

    /// Replaces the bytes in `range` (whole records, or an empty range at a
    /// record boundary) with one record of `kind` whose body is `bodyCount`
    /// octets, written by `write`.
    mutating func replace(
        _ range: Range<Int>, kind: UInt8, bodyCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void
    ) {
        let size = Self.headerSize + bodyCount
        // One edit: room made once, where resizing and then writing checked uniqueness twice.
        bytes.edit(reserving: Swift.max(0, size - range.count)) { editor in
            editor.resize(range, to: size)
            let start = range.lowerBound
            editor.base.storeBytes(of: kind, toByteOffset: start, as: UInt8.self)
            editor.base.storeBytes(
                of: UInt32(truncatingIfNeeded: bodyCount).littleEndian, toByteOffset: start + 1, as: UInt32.self)
            write(UnsafeMutableRawBufferPointer(start: editor.base + start + Self.headerSize, count: bodyCount))
        }
    }

    /// Replaces the bytes in `range` with `records` (whole records of another buffer).
    mutating func replace(_ range: Range<Int>, withRecords records: UnsafeRawBufferPointer) {
        bytes.edit(reserving: Swift.max(0, records.count - range.count)) { $0.replace(range, with: records) }
    }

    /// Grows the body of the record at `offset` by `count` octets at its end, written by `write`.
    mutating func extend(recordAt offset: Int, by count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        bytes.edit(reserving: count) { editor in
            let (end, bodyCount) = (editor.view.end(ofRecordAt: offset), editor.view.bodyCount(at: offset))
            editor.resize(end..<end, to: count)
            editor.base.storeBytes(
                of: UInt32(truncatingIfNeeded: bodyCount + count).littleEndian, toByteOffset: offset + 1, as: UInt32.self)
            write(UnsafeMutableRawBufferPointer(start: editor.base + end, count: count))
        }
    }

    /// `AdvertisingData.overlay` of the records: each name and UUID list of
    /// `source`, service data per UUID, manufacturer data per company (all
    /// its values), replaces ours; a section past `keyLimit` keys becomes
    /// `source`'s. One walk of both (each is in canonical order, so where a
    /// record of `source` goes only moves forward) and edits in place with
    /// room reserved once: a look-up from the start and a uniqueness check
    /// per edit cost ~560 instructions a changed report (callgrind, issue 25).
    mutating func overlay(_ source: ADRecordView, keyLimit: Int) {
        let sourceEnd = source.bytes.count
        // What it holds at most midway: ours plus every record of `source`.
        bytes.edit(reserving: sourceEnd) { ours in
            var from = 0
            var at = 0
            // Names and UUID lists: one record each.
            while from < sourceEnd, source.bytes[from] <= Kind.incompleteUUIDs {
                let kind = source.bytes[from]
                let next = source.end(ofRecordAt: from)
                let view = ours.view
                at = view.start(of: kind, from: at)
                let ourEnd = at < view.bytes.count && view.bytes[at] == kind ? view.end(ofRecordAt: at) : at
                ours.replace(at..<ourEnd, with: source.slice(from..<next))
                at += next - from
                from = next
            }
            if from < sourceEnd, source.bytes[from] == Kind.serviceData {
                at = ours.view.start(of: Kind.serviceData, from: at)
                let ourSection = at
                let sourceSection = from
                while from < sourceEnd, source.bytes[from] == Kind.serviceData {
                    let key = source.uuid(atBodyOf: from)
                    let next = source.end(ofRecordAt: from)
                    let view = ours.view
                    while at < view.bytes.count, view.bytes[at] == Kind.serviceData, view.uuid(atBodyOf: at) < key {
                        at = view.end(ofRecordAt: at)
                    }
                    let ourEnd = at < view.bytes.count && view.bytes[at] == Kind.serviceData
                        && view.uuid(atBodyOf: at) == key ? view.end(ofRecordAt: at) : at
                    ours.replace(at..<ourEnd, with: source.slice(from..<next))
                    at += next - from
                    from = next
                }
                let view = ours.view
                var sectionEnd = ourSection
                var keys = 0
                while sectionEnd < view.bytes.count, view.bytes[sectionEnd] == Kind.serviceData {
                    keys += 1
                    sectionEnd = view.end(ofRecordAt: sectionEnd)
                }
                if keys > keyLimit {
                    ours.replace(ourSection..<sectionEnd, with: source.slice(sourceSection..<from))
                    at = ourSection + (from - sourceSection)
                }
            }
            if from < sourceEnd, source.bytes[from] == Kind.manufacturerData {
                at = ours.view.start(of: Kind.manufacturerData, from: at)
                let ourSection = at
                let sourceSection = from
                while from < sourceEnd, source.bytes[from] == Kind.manufacturerData {
                    // One company's values replace all of ours, as a group.
                    let company = source.company(at: from)
                    var next = from
                    while next < sourceEnd, source.company(at: next) == company { next = source.end(ofRecordAt: next) }
                    let view = ours.view
                    while at < view.bytes.count, view.company(at: at) < company { at = view.end(ofRecordAt: at) }
                    var ourEnd = at
                    while ourEnd < view.bytes.count, view.company(at: ourEnd) == company {
                        ourEnd = view.end(ofRecordAt: ourEnd)
                    }
                    ours.replace(at..<ourEnd, with: source.slice(from..<next))
                    at += next - from
                    from = next
                }
                if ours.view.companyCount(from: ourSection) > keyLimit {
                    ours.replace(ourSection..<ours.count, with: source.slice(sourceSection..<from))
                }
            }
        }
    }

    // MARK: The operations AD structures need

    /// Sets the one record of a single-record `kind` (a name, a UUID list) to `body`, or removes it when nil.
    mutating func set(_ kind: UInt8, to body: UnsafeRawBufferPointer?) {
        let range = withView { $0.section(kind) }
        guard let body else {
            resize(range, to: 0)
            return
        }
        replace(range, kind: kind, bodyCount: body.count) { target in
            if let source = body.baseAddress { target.baseAddress!.copyMemory(from: source, byteCount: body.count) }
        }
    }

    /// Appends UUIDs to the list of `kind`, starting it if there is none.
    mutating func appendUUIDs(_ kind: UInt8, count: Int, _ uuid: (Int) -> BluetoothUUID) {
        guard count > 0 else { return }
        let size = count * Self.uuidSize
        let section = withView { $0.section(kind) }
        // Closures written out in each branch: one kept in a constant would be allocated.
        if section.isEmpty {
            replace(section, kind: kind, bodyCount: size) { Self.write(count, uuid, to: $0) }
        } else {
            extend(recordAt: section.lowerBound, by: size) { Self.write(count, uuid, to: $0) }
        }
    }

    private static func write(_ count: Int, _ uuid: (Int) -> BluetoothUUID, to target: UnsafeMutableRawBufferPointer) {
        var index = 0
        while index < count {
            let value = uuid(index)
            target.storeBytes(of: value.high, toByteOffset: index * uuidSize, as: UInt64.self)
            target.storeBytes(of: value.low, toByteOffset: index * uuidSize + 8, as: UInt64.self)
            index += 1
        }
    }

    /// Sets the service data of `uuid`, replacing any there was.
    mutating func setServiceData(_ value: UnsafeRawBufferPointer, for uuid: BluetoothUUID) {
        let range = withView { view in
            var offset = view.start(of: Kind.serviceData)
            while offset < view.bytes.count, view.bytes[offset] == Kind.serviceData {
                let key = view.uuid(atBodyOf: offset)
                if key == uuid { return offset..<view.end(ofRecordAt: offset) }
                if uuid < key { break }
                offset = view.end(ofRecordAt: offset)
            }
            return offset..<offset
        }
        replace(range, kind: Kind.serviceData, bodyCount: Self.uuidSize + value.count) { target in
            target.storeBytes(of: uuid.high, toByteOffset: 0, as: UInt64.self)
            target.storeBytes(of: uuid.low, toByteOffset: 8, as: UInt64.self)
            if let source = value.baseAddress {
                target.baseAddress!.advanced(by: Self.uuidSize).copyMemory(from: source, byteCount: value.count)
            }
        }
    }

    /// Adds one manufacturer data value of `company` after its others, unless the same bytes are already there.
    mutating func addManufacturerData(_ value: UnsafeRawBufferPointer, for company: UInt16) {
        let position: Int? = withView { view in
            let group = view.manufacturerGroup(company)
            var offset = group.lowerBound
            while offset < group.upperBound {
                if ADRecordView.same(view.manufacturerValue(at: offset), value) { return nil }
                offset = view.end(ofRecordAt: offset)
            }
            return group.upperBound
        }
        guard let position else { return }
        replace(position..<position, kind: Kind.manufacturerData, bodyCount: Self.companySize + value.count) { target in
            target.storeBytes(of: company.littleEndian, toByteOffset: 0, as: UInt16.self)
            if let source = value.baseAddress {
                target.baseAddress!.advanced(by: Self.companySize).copyMemory(from: source, byteCount: value.count)
            }
        }
    }
}

/// Borrowed, read-only access to the records of an `ADRecords` (valid only
/// inside the `withView` call that made it).
struct ADRecordView {
    let bytes: UnsafeRawBufferPointer

    /// Byte equality, as a plain loop. Here and in every loop of the intake
    /// path: an unoptimised build (the allocation test's) allocates in
    /// generic iterators and slice subscripts, so loops are `while` over indices.
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        while index < a.count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }

    func bodyCount(at offset: Int) -> Int {
        Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
    }

    func end(ofRecordAt offset: Int) -> Int { offset + ADRecords.headerSize + bodyCount(at: offset) }

    func body(at offset: Int) -> UnsafeRawBufferPointer {
        let start = offset + ADRecords.headerSize
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + bodyCount(at: offset))])
    }

    /// Where the records of `kind` start (or would be put), looking from
    /// `offset` (a record boundary not past them).
    func start(of kind: UInt8, from offset: Int = 0) -> Int {
        var offset = offset
        while offset < bytes.count, bytes[offset] < kind { offset = end(ofRecordAt: offset) }
        return offset
    }

    /// The bytes in `range`, borrowed.
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }

    /// The records of `kind`, an empty range where they would be when there are none.
    func section(_ kind: UInt8) -> Range<Int> {
        let start = start(of: kind)
        var offset = start
        while offset < bytes.count, bytes[offset] == kind { offset = end(ofRecordAt: offset) }
        return start..<offset
    }

    /// How many companies' manufacturer data there is (looking from `offset`, a record boundary not past it).
    func companyCount(from offset: Int = 0) -> Int {
        var count = 0
        var offset = start(of: ADRecords.Kind.manufacturerData, from: offset)
        var last: UInt16?
        while offset < bytes.count {
            let company = self.company(at: offset)
            if company != last { count += 1 }
            last = company
            offset = end(ofRecordAt: offset)
        }
        return count
    }

    /// The body of the one record of a single-record `kind`, if there is one.
    func single(_ kind: UInt8) -> UnsafeRawBufferPointer? {
        let offset = start(of: kind)
        guard offset < bytes.count, bytes[offset] == kind else { return nil }
        return body(at: offset)
    }

    /// The best name: the complete one, else the shortened one.
    var localName: UnsafeRawBufferPointer? { single(ADRecords.Kind.completeName) ?? single(ADRecords.Kind.shortenedName) }

    func uuid(at offset: Int) -> BluetoothUUID {
        BluetoothUUID(
            high: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
            low: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
    }

    /// The UUID a service data record is for.
    func uuid(atBodyOf offset: Int) -> BluetoothUUID { uuid(at: offset + ADRecords.headerSize) }

    /// Calls `body` with each UUID of the list of `kind`, in order, until it returns false.
    @discardableResult
    func forEachUUID(in kind: UInt8, _ body: (BluetoothUUID) -> Bool) -> Bool {
        let offset = start(of: kind)
        guard offset < bytes.count, bytes[offset] == kind else { return true }
        var position = offset + ADRecords.headerSize
        let end = end(ofRecordAt: offset)
        while position < end {
            if !body(uuid(at: position)) { return false }
            position += ADRecords.uuidSize
        }
        return true
    }

    func listContains(_ kind: UInt8, _ uuid: BluetoothUUID) -> Bool {
        !forEachUUID(in: kind) { $0 != uuid }
    }

    /// The value of `uuid`'s service data, if the device sent it.
    func serviceData(_ uuid: BluetoothUUID) -> UnsafeRawBufferPointer? {
        var offset = start(of: ADRecords.Kind.serviceData)
        while offset < bytes.count, bytes[offset] == ADRecords.Kind.serviceData {
            let key = self.uuid(atBodyOf: offset)
            if key == uuid {
                let value = body(at: offset)
                return UnsafeRawBufferPointer(rebasing: value[ADRecords.uuidSize..<value.count])
            }
            if uuid < key { return nil }
            offset = end(ofRecordAt: offset)
        }
        return nil
    }

    func company(at offset: Int) -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + ADRecords.headerSize, as: UInt16.self))
    }

    /// The value of the manufacturer data record at `offset`, after its company.
    func manufacturerValue(at offset: Int) -> UnsafeRawBufferPointer {
        let start = offset + ADRecords.headerSize + ADRecords.companySize
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end(ofRecordAt: offset)])
    }

    /// The records of `company`'s manufacturer data (an empty range where they would go).
    func manufacturerGroup(_ company: UInt16) -> Range<Int> {
        var offset = start(of: ADRecords.Kind.manufacturerData)
        while offset < bytes.count, self.company(at: offset) < company { offset = end(ofRecordAt: offset) }
        let start = offset
        while offset < bytes.count, self.company(at: offset) == company { offset = end(ofRecordAt: offset) }
        return start..<offset
    }
}
