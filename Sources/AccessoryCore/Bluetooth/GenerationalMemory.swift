/// A bounded memory of answers in two generations, the current one and the
/// one before. A lookup looks in both and moves a hit from the older into the
/// current; when the current holds half the capacity, the older generation
/// is dropped whole and the current one becomes the older. So at most
/// `capacity` answers are kept, an answer used since the last turn survives
/// the next, and eviction costs nothing per lookup (no recency list to keep
/// in order): an approximation of least-recently-used, half the memory at a time.
struct GenerationalMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private var current: [Key: Value] = [:]
    private var older: [Key: Value] = [:]
    private let half: Int

    init(capacity: Int) {
        half = max(1, capacity / 2)
    }

    var count: Int { current.count + older.count }

    mutating func value(for key: Key) -> Value? {
        if let value = current[key] { return value }
        guard let value = older.removeValue(forKey: key) else { return nil }
        remember(value, for: key)
        return value
    }

    mutating func remember(_ value: Value, for key: Key) {
        if current.count >= half, current[key] == nil {
            older = current
            current = Dictionary(minimumCapacity: half)
        }
        current[key] = value
    }

    /// Forgets every answer `shouldForget` picks, in both generations: what an added or removed key makes wrong.
    mutating func forget(where shouldForget: (Value) -> Bool) {
        current = current.filter { !shouldForget($0.value) }
        older = older.filter { !shouldForget($0.value) }
    }
}
