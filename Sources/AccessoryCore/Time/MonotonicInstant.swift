/// A point on a monotonic clock (CLOCK_BOOTTIME in the
/// daemon, a `ManualClock` in tests), in nanoseconds from the clock's epoch.
/// Never wall-clock time: presence must not jump when NTP sets the date.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    /// Later by `duration` (earlier when negative), saturating at the clock's ends.
    public func advanced(by duration: Duration) -> MonotonicInstant {
        let delta = duration.nanosecondsSaturating
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return MonotonicInstant(nanoseconds: nanoseconds > magnitude ? nanoseconds - magnitude : 0)
    }

    /// How long after `earlier` this is; zero when it is not after.
    public func duration(since earlier: MonotonicInstant) -> Duration {
        guard nanoseconds > earlier.nanoseconds else { return .zero }
        let difference = nanoseconds - earlier.nanoseconds
        return .nanoseconds(difference > UInt64(Int64.max) ? Int64.max : Int64(difference))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String {
        let millis = nanoseconds / 1_000_000
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to Int64.
    var nanosecondsSaturating: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return total
    }
}
