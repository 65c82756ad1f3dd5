/// Deadlines waiting for their instant, earliest first: the one place that
/// decides which timed work is due, so a loop needs a single timer armed for
/// `earliest`. A value with no clock inside: the caller says what time it is,
/// so a test can jump a `ManualClock` past a simulated suspend and see every
/// overdue entry come out once, in order.
///
/// Firing takes two steps so that the work it runs may change the queue:
/// `beginFiring(at:)` sets aside every entry due by then, and `nextToFire()`
/// hands them out one at a time, earliest first (ties in insertion order).
/// Until an entry is handed out, `cancel` still withdraws it; an entry
/// inserted meanwhile waits for the next `beginFiring`, even when already
/// due, so firing always ends.
///
/// Costs are linear at worst (insert and cancel shift or search one array);
/// a loop holds tens of deadlines, not thousands.
public struct DeadlineQueue<Payload> {
    /// Names one inserted entry, for `cancel`; never reused by its queue.
    public typealias Token = TimerToken

    public struct Entry {
        public let token: Token
        public let due: MonotonicInstant
        public let payload: Payload
    }

    /// Not yet taken, ordered by due instant, then by insertion.
    private var waiting: [Entry] = []
    /// Taken by `beginFiring` and not handed out yet; the next one last.
    private var firing: [Entry] = []
    private var nextSequence: UInt64 = 0

    public init() {}

    /// Entries not yet handed out, waiting or set aside for firing.
    public var count: Int { waiting.count + firing.count }
    public var isEmpty: Bool { count == 0 }

    /// When the next entry is due; nil when there is none. An entry set aside
    /// and not handed out counts too: the caller still owes it a firing.
    public var earliest: MonotonicInstant? {
        switch (waiting.first?.due, firing.last?.due) {
        case let (waiting?, firing?): min(waiting, firing)
        case let (waiting, firing): waiting ?? firing
        }
    }

    /// Adds `payload`, due at `due` (which may be past: it is then due at once).
    @discardableResult
    public mutating func insert(_ payload: Payload, at due: MonotonicInstant) -> Token {
        let token = Token(sequence: nextSequence)
        nextSequence += 1
        // After every entry due at or before `due`: ties keep insertion order.
        waiting.insert(Entry(token: token, due: due, payload: payload), at: firstIndex(dueAfter: due))
        return token
    }

    /// Withdraws the entry; its payload, or nil when it was already handed
    /// out, cancelled, or never from this queue.
    @discardableResult
    public mutating func cancel(_ token: Token) -> Payload? {
        if let index = waiting.firstIndex(where: { $0.token == token }) {
            return waiting.remove(at: index).payload
        }
        if let index = firing.firstIndex(where: { $0.token == token }) {
            return firing.remove(at: index).payload
        }
        return nil
    }

    /// Sets aside every entry due at or before `now` for `nextToFire()`,
    /// behind any still set aside from an earlier call.
    public mutating func beginFiring(at now: MonotonicInstant) {
        let due = firstIndex(dueAfter: now)
        guard due > 0 else { return }
        firing.insert(contentsOf: waiting[..<due].reversed(), at: 0)
        waiting.removeFirst(due)
    }

    /// The next entry set aside by `beginFiring`, removed; nil when all are out.
    public mutating func nextToFire() -> Entry? { firing.popLast() }

    /// Every entry due at or before `now`, in firing order, removed at once:
    /// for a caller whose work does not touch the queue while it runs.
    public mutating func takeDue(at now: MonotonicInstant) -> [Entry] {
        beginFiring(at: now)
        defer { firing.removeAll() }
        return firing.reversed()
    }

    /// The first waiting entry due strictly after `instant` (binary search).
    private func firstIndex(dueAfter instant: MonotonicInstant) -> Int {
        var low = 0
        var high = waiting.count
        while low < high {
            let middle = (low + high) / 2
            if waiting[middle].due <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Names one armed deadline, for `cancel`: what a `DeadlineQueue`, and so a
/// `Scheduler`, hands out. Never reused by the queue that made it.
public struct TimerToken: Hashable, Sendable {
    fileprivate let sequence: UInt64
}

extension DeadlineQueue.Entry: Sendable where Payload: Sendable {}
extension DeadlineQueue: Sendable where Payload: Sendable {}
