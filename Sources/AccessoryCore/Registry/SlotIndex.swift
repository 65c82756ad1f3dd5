/// The registry's index from a device's key to its slot: an open-addressing
/// table of the keys' packed words (`AccessoryKey.word`), probed linearly,
/// with deletion by backward shift (no tombstones). A Dictionary hashed every
/// key with SipHash and rehashed its neighbours on every removal: past the
/// device cap, where each report inserts one key and removes another, that
/// was ~1,500 instructions a report (callgrind, issue 25).
///
/// Addresses come from the air, so the mix is keyed with a seed drawn per
/// table: a sender cannot choose addresses that collide without knowing it.
struct SlotIndex: Sendable {
    private struct Entry {
        var word: UInt64
        /// The registry slot; `empty` when the entry is free.
        var slot: Int
    }

    private static let empty = -1
    private var entries: [Entry]
    private var mask: Int
    private let seed: UInt64
    private(set) var count = 0

    init() {
        entries = Array(repeating: Entry(word: 0, slot: Self.empty), count: 16)
        mask = 15
        seed = UInt64.random(in: .min ... .max)
    }

    /// Where `word` would sit with no collision (splitmix64's finaliser over the seeded word).
    @inline(__always)
    private func home(_ word: UInt64) -> Int {
        var mixed = (word ^ seed) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31)) & mask
    }

    /// The position of `word`, or of the free entry where it would go.
    @inline(__always)
    private func position(of word: UInt64) -> Int {
        var position = home(word)
        while entries[position].slot != Self.empty, entries[position].word != word { position = (position + 1) & mask }
        return position
    }

    subscript(key: AccessoryKey) -> Int? {
        let entry = entries[position(of: key.word)]
        return entry.slot == Self.empty ? nil : entry.slot
    }

    /// Files `key` under `slot`, replacing any slot it had.
    mutating func insert(_ key: AccessoryKey, slot: Int) {
        let word = key.word
        let position = position(of: word)
        if entries[position].slot == Self.empty { count += 1 }
        entries[position] = Entry(word: word, slot: slot)
        // At most half full, so probe runs stay short.
        if count * 2 > entries.count { grow() }
    }

    /// Forgets `key`; nothing when it is not filed.
    mutating func remove(_ key: AccessoryKey) {
        var hole = position(of: key.word)
        guard entries[hole].slot != Self.empty else { return }
        count -= 1
        // Entries after the hole whose probe passed through it move back into it,
        // so that every entry stays reachable from its home without tombstones.
        var next = (hole + 1) & mask
        while entries[next].slot != Self.empty {
            let home = home(entries[next].word)
            if (next - home) & mask >= (next - hole) & mask {
                entries[hole] = entries[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        entries[hole].slot = Self.empty
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(word: 0, slot: Self.empty), count: old.count * 2)
        mask = entries.count - 1
        for entry in old where entry.slot != Self.empty { entries[position(of: entry.word)] = entry }
    }
}
