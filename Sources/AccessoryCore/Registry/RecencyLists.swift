/// Doubly linked lists threaded through the registry's slots, most recently
/// heard first, so moving a device to the front and finding the least
/// recently heard are O(1). Each slot is in at most one list.
///
/// One array of links, each list closed in a ring through a sentinel link of
/// its own: moving a slot is a few stores in one buffer, without a case for
/// the ends, where four arrays (and the registry's record of which list a
/// slot was in) made each store a uniqueness check of its own, ~250
/// instructions a report (callgrind, issue 25).
struct RecencyLists: Sendable {
    static let none = -1

    private struct Link: Sendable {
        var previous: Int
        var following: Int
    }

    /// Links `0..<lists` are the lists' sentinels (`following` is the front,
    /// `previous` the back); slot `s` is link `lists + s`, `none` both ways while in no list.
    private var links: [Link]
    private let lists: Int

    init(lists: Int) {
        self.lists = lists
        links = []
        var list = 0
        while list < lists {
            links.append(Link(previous: list, following: list))
            list += 1
        }
    }

    mutating func ensureSlot(_ slot: Int) {
        while links.count <= lists + slot { links.append(Link(previous: Self.none, following: Self.none)) }
    }

    /// Puts `slot` at the front of `list`, taking it out of the list it was in, if any.
    mutating func moveToFront(_ slot: Int, list: Int) {
        ensureSlot(slot)
        let node = lists + slot
        precondition(slot >= 0 && list >= 0 && list < lists)
        links.withUnsafeMutableBufferPointer { links in
            if links[list].following == node { return }
            Self.unlink(node, in: links)
            let front = links[list].following
            links[node] = Link(previous: list, following: front)
            links[front].previous = node
            links[list].following = node
        }
    }

    /// Takes `slot` out of the list it is in, if any.
    mutating func remove(_ slot: Int) {
        guard slot >= 0, lists + slot < links.count else { return }
        links.withUnsafeMutableBufferPointer { Self.unlink(lists + slot, in: $0) }
    }

    /// The least recently heard slot of `list`.
    func last(of list: Int) -> Int? {
        let back = links[list].previous
        return back == list ? nil : back - lists
    }

    /// `node` (in bounds) out of its ring; its neighbours are links this type set, in bounds too.
    private static func unlink(_ node: Int, in links: UnsafeMutableBufferPointer<Link>) {
        let link = links[node]
        guard link.previous != none else { return }
        links[link.previous].following = link.following
        links[link.following].previous = link.previous
        links[node] = Link(previous: none, following: none)
    }
}
