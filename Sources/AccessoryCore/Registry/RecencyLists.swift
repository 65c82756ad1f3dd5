/// Doubly linked lists threaded through the registry's slots, most recently
/// heard first, so moving a device to the front and finding the least
/// recently heard are O(1). Each slot is in at most one list.
struct RecencyLists: Sendable {
    static let none = -1
    private var previous: [Int] = []
    private var following: [Int] = []
    private var heads: [Int]
    private var tails: [Int]

    init(lists: Int) {
        heads = Array(repeating: Self.none, count: lists)
        tails = Array(repeating: Self.none, count: lists)
    }

    mutating func ensureSlot(_ slot: Int) {
        while previous.count <= slot {
            previous.append(Self.none)
            following.append(Self.none)
        }
    }

    mutating func pushFront(_ slot: Int, list: Int) {
        ensureSlot(slot)
        previous[slot] = Self.none
        following[slot] = heads[list]
        if heads[list] != Self.none { previous[heads[list]] = slot } else { tails[list] = slot }
        heads[list] = slot
    }

    mutating func remove(_ slot: Int, list: Int) {
        let before = previous[slot]
        let after = following[slot]
        if before != Self.none { following[before] = after } else { heads[list] = after }
        if after != Self.none { previous[after] = before } else { tails[list] = before }
        previous[slot] = Self.none
        following[slot] = Self.none
    }

    /// The least recently heard slot of `list`.
    func last(of list: Int) -> Int? { tails[list] == Self.none ? nil : tails[list] }
}
