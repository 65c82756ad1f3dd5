/// A clock that moves only when told to, for tests and replays: presence over
/// minutes of simulated silence runs in microseconds.
public final class ManualClock: MonotonicClock {
    public private(set) var now: MonotonicInstant

    public init(_ start: MonotonicInstant = .zero) { now = start }

    public func advance(by duration: Duration) { now = now.advanced(by: duration) }

    /// Moves to `instant`; a monotonic clock never goes back, so an earlier one is ignored.
    public func advance(to instant: MonotonicInstant) { now = max(now, instant) }
}
