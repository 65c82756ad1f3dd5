/// The byte buffer an `ADRecords` keeps its records in: value semantics as
/// `[UInt8]` had (copies share storage until one is written), but its
/// length is a stored count of its own. Making room inside the records
/// appended zeros to an Array and taking it away removed its last bytes,
/// each an Array call with uniqueness and capacity checks of its own (~450
/// instructions a changed report, callgrind, issue 25); here either is a move
/// of the bytes after the range and a store of the count.
struct ADRecordBytes: Hashable, @unchecked Sendable {
    // @unchecked: as an Array's, the storage is written only while uniquely referenced.
    private struct Header {
        var count: Int
        var capacity: Int
    }

    private typealias Storage = ManagedBuffer<Header, UInt8>

    /// nil until the first byte (or a reservation).
    private var storage: Storage?

    init() {}

    // The header is read and written through its pointer throughout: `header`,
    // a class's stored property, is checked for exclusive access at run time
    // in this module, which cost more than the Array calls this replaced.
    var count: Int {
        @inline(__always) get { storage?.withUnsafeMutablePointerToHeader { $0.pointee.count } ?? 0 }
    }

    var isEmpty: Bool { count == 0 }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let storage else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeRawBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// The bytes, writable: the storage is made unique first.
    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        makeRoom(for: count)
        return try storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            try body(UnsafeMutableRawBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// No bytes; unique storage is kept for the next ones.
    mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.count = 0 }
        } else {
            storage = nil
        }
    }

    mutating func reserveCapacity(_ capacity: Int) { makeRoom(for: capacity) }

    /// `removeAll()` then `reserveCapacity(capacity)`, checking uniqueness once.
    mutating func removeAll(reservingCapacity capacity: Int) {
        if isKnownUniquelyReferenced(&storage),
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader({ $0.pointee.capacity }) >= capacity {
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.count = 0 }
            return
        }
        storage = nil
        if capacity > 0 { reallocate(for: capacity) }
    }

    mutating func append(contentsOf source: UnsafeRawBufferPointer) {
        guard let from = source.baseAddress, !source.isEmpty else { return }
        makeRoom(for: count + source.count)
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            UnsafeMutableRawPointer(elements + header.pointee.count).copyMemory(from: from, byteCount: source.count)
            header.pointee.count += source.count
        }
    }

    /// Calls `body` with the bytes made unique and room for `extra` more
    /// octets reserved, to be edited in place (see `ADRecordEditor`): one
    /// uniqueness and capacity check for a whole merge, where each edit
    /// through `resize` made its own.
    mutating func edit<R>(reserving extra: Int, _ body: (inout ADRecordEditor) -> R) -> R {
        makeRoom(for: count + extra)
        return storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            var editor = ADRecordEditor(
                base: UnsafeMutableRawPointer(elements), capacity: header.pointee.capacity, count: header.pointee.count)
            let result = body(&editor)
            header.pointee.count = editor.count
            return result
        }
    }

    /// Makes the bytes in `range` `newCount` long, moving the bytes after it.
    /// The bytes a range grows by are not set: the caller writes them.
    mutating func resize(_ range: Range<Int>, to newCount: Int) {
        let growth = newCount - range.count
        if growth == 0 { return }
        makeRoom(for: count + growth)
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let tail = header.pointee.count - range.upperBound
            if tail > 0 {
                // copyMemory moves as memmove does: the two ranges may overlap.
                UnsafeMutableRawPointer(elements + range.upperBound + growth)
                    .copyMemory(from: elements + range.upperBound, byteCount: tail)
            }
            header.pointee.count += growth
        }
    }

    /// Makes `storage` this value's own, holding its bytes, with room for at
    /// least `needed`. Inlined, and the storage then used where it lies: a
    /// call returning it retained and released it on every write.
    @inline(__always)
    private mutating func makeRoom(for needed: Int) {
        if isKnownUniquelyReferenced(&storage),
            storage.unsafelyUnwrapped.withUnsafeMutablePointerToHeader({ $0.pointee.capacity }) >= needed {
            return
        }
        reallocate(for: needed)
    }

    @inline(never)
    private mutating func reallocate(for needed: Int) {
        let oldCount = count
        let oldCapacity = storage?.withUnsafeMutablePointerToHeader { $0.pointee.capacity } ?? 0
        let capacity = Swift.max(needed, oldCount, 2 * oldCapacity, 16)
        let fresh = Storage.create(minimumCapacity: capacity) { _ in Header(count: oldCount, capacity: capacity) }
        if let old = storage, oldCount > 0 {
            old.withUnsafeMutablePointerToElements { from in
                fresh.withUnsafeMutablePointerToElements { $0.initialize(from: from, count: oldCount) }
            }
        }
        storage = fresh
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in ADRecordView.same(left, right) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: bytes)
        }
    }
}

/// The bytes of an `ADRecordBytes` during `edit`: unique, with a fixed
/// capacity that every edit is checked against.
struct ADRecordEditor {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private(set) var count: Int

    init(base: UnsafeMutableRawPointer, capacity: Int, count: Int) {
        self.base = base
        self.capacity = capacity
        self.count = count
    }

    /// The bytes as they are now (valid until the next edit).
    var view: ADRecordView { ADRecordView(bytes: UnsafeRawBufferPointer(start: base, count: count)) }

    /// Makes the bytes in `range` `newCount` long, moving what follows; the
    /// bytes of the new range are to be written by the caller.
    mutating func resize(_ range: Range<Int>, to newCount: Int) {
        let growth = newCount - range.count
        precondition(range.lowerBound >= 0 && range.upperBound <= count && count + growth <= capacity)
        let tail = count - range.upperBound
        if growth != 0, tail > 0 {
            // copyMemory moves as memmove does: the two ranges may overlap.
            (base + range.upperBound + growth).copyMemory(from: base + range.upperBound, byteCount: tail)
        }
        count += growth
    }

    /// Replaces the bytes in `range` with `records` (bytes of another buffer), moving what follows.
    mutating func replace(_ range: Range<Int>, with records: UnsafeRawBufferPointer) {
        resize(range, to: records.count)
        if let source = records.baseAddress, records.count > 0 {
            (base + range.lowerBound).copyMemory(from: source, byteCount: records.count)
        }
    }
}
