import AccessoryCore

/// What the bridge must not lose while the broker is away: the accessories
/// whose retained topics (Home Assistant's discovery configs among them) are
/// to be emptied on the next connection, because their grant went meanwhile.
/// Everything else is current state, kept in memory and sent afresh on
/// reconnection; queuing it would only publish old values as current.
///
/// Bounded: past `limit` the oldest withdrawal is dropped and counted (its
/// retained topics then stay on the broker until someone clears them).
public struct PendingWithdrawals: Sendable {
    public let limit: Int
    /// In the order the grants went.
    public private(set) var accessories: [AccessoryID] = []
    /// Withdrawals dropped because the queue was full, since the bridge started.
    public private(set) var dropped = 0

    public init(limit: Int) { self.limit = max(1, limit) }

    public var isEmpty: Bool { accessories.isEmpty }

    /// Queues the accessory's withdrawal; the one dropped to make room, if any.
    public mutating func add(_ id: AccessoryID) -> AccessoryID? {
        guard !accessories.contains(id) else { return nil }
        accessories.append(id)
        guard accessories.count > limit else { return nil }
        dropped += 1
        return accessories.removeFirst()
    }

    /// The accessory is published again (approved anew while the broker was away): nothing to withdraw.
    public mutating func cancel(_ id: AccessoryID) {
        accessories.removeAll { $0 == id }
    }

    /// Everything queued, oldest first, and the queue emptied.
    public mutating func takeAll() -> [AccessoryID] {
        defer { accessories.removeAll() }
        return accessories
    }
}
