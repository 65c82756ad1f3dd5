/// The index's buckets of descriptor slots under one kind of key (a company
/// identifier, a service UUID), kept sorted by key and found by binary
/// search. Every advertisement looks up each of its keys: a Dictionary hashed
/// each with SipHash, ~265 instructions for a UUID (callgrind, issue 25),
/// where a search among the few dozen keys apps declare costs a fraction.
struct KeyedBuckets<Key: Comparable & Sendable>: Sendable {
    private struct Bucket: Sendable {
        let key: Key
        /// Never empty: a bucket goes with its last slot.
        var slots: [Int]
    }

    /// One array, not keys and slots apart: a look-up copies the table into
    /// a local first, and each array is a retain and a release.
    private var buckets: [Bucket] = []

    var isEmpty: Bool { buckets.isEmpty }

    /// The slots filed under `key`, or nil when none is.
    subscript(key: Key) -> [Int]? {
        let position = position(of: key)
        return position < buckets.count && buckets[position].key == key ? buckets[position].slots : nil
    }

    mutating func add(_ slot: Int, under key: Key) {
        let position = position(of: key)
        if position < buckets.count, buckets[position].key == key {
            buckets[position].slots.append(slot)
        } else {
            buckets.insert(Bucket(key: key, slots: [slot]), at: position)
        }
    }

    /// Takes `slot` out of `key`'s bucket by moving the bucket's last slot
    /// into its place; a bucket left empty goes.
    mutating func remove(_ slot: Int, from key: Key) {
        let position = position(of: key)
        guard position < buckets.count, buckets[position].key == key,
            let found = buckets[position].slots.firstIndex(of: slot)
        else { return }
        let last = buckets[position].slots.count - 1
        buckets[position].slots.swapAt(found, last)
        buckets[position].slots.removeLast()
        if buckets[position].slots.isEmpty { buckets.remove(at: position) }
    }

    /// Where `key` is, or where it would be inserted.
    private func position(of key: Key) -> Int {
        var low = 0
        var high = buckets.count
        while low < high {
            let middle = (low + high) >> 1
            if buckets[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
