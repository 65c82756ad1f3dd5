/// How fast one app may ask accessoryd for something (`[Limits]
/// RequestsPerMinute`, `RequestBurst`): a token bucket per app, as a value.
/// An app starts with `burst` requests in hand and earns one back every
/// minute / `perMinute`; a request with none in hand is refused, and the
/// answer says when the next one is earned. Time comes in as an argument
/// (the service's clock; a manual one in tests), so the rule is a function
/// of the requests and their instants alone.
public struct RequestRate: Sendable {
    public let perMinute: Int
    public let burst: Int
    /// Per app: requests in hand, in thousandths (whole-number arithmetic,
    /// no drift), as of `updated`.
    private var buckets: [AppID: Bucket] = [:]

    private struct Bucket: Sendable {
        var milli: Int64
        var updated: MonotonicInstant
    }

    public init(perMinute: Int, burst: Int) {
        self.perMinute = max(1, perMinute)
        self.burst = max(1, burst)
    }

    /// What `take` answered.
    public enum Answer: Equatable, Sendable {
        case allowed
        /// Refused; the next request is earned after this long.
        case refused(retryAfter: Duration)
    }

    /// One request of `app` at `now`.
    public mutating func take(_ app: AppID, at now: MonotonicInstant) -> Answer {
        let full = Int64(burst) * 1000
        var bucket = buckets[app] ?? Bucket(milli: full, updated: now)
        // One milli-request earned every 60_000_000 / perMinute ns. Only the
        // time that earned something is consumed, so frequent asking loses no refill.
        let elapsed = now.nanoseconds > bucket.updated.nanoseconds ? now.nanoseconds - bucket.updated.nanoseconds : 0
        let perMilli = UInt64(60_000_000 / perMinute)  // ns per milli-request (perMinute ≤ 2^31: ≥ 0)
        let step = max(1, perMilli)
        let gained = elapsed / step
        if gained >= UInt64(full) || bucket.milli + Int64(gained) >= full {
            bucket.milli = full
            bucket.updated = now
        } else {
            bucket.milli += Int64(gained)
            bucket.updated = bucket.updated.advanced(by: .nanoseconds(Int64(gained * step)))
        }
        defer { buckets[app] = bucket }
        guard bucket.milli >= 1000 else {
            let wait = UInt64(1000 - bucket.milli) * step - (elapsed - gained * step)
            return .refused(retryAfter: .nanoseconds(Int64(wait)))
        }
        bucket.milli -= 1000
        return .allowed
    }

    /// Forgets apps whose bucket is full again: they cost nothing to keep
    /// out (an app that comes back starts full, as it would be).
    public mutating func forgetIdle(at now: MonotonicInstant) {
        let refill = Duration.seconds(60) * Double(burst) / Double(perMinute)
        buckets = buckets.filter { $0.value.updated.advanced(by: refill) > now }
    }

    /// How many apps it remembers (bounded by the apps that asked lately).
    public var remembered: Int { buckets.count }
}
