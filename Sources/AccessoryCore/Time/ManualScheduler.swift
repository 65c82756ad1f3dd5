/// A scheduler whose time moves only when told to, for tests and replays: a
/// two-minute timeout runs in microseconds. Handlers run from `advance`, each
/// at its own deadline (the clock reads that instant while it runs), earliest
/// first, ties in the order armed, as the event loop runs them.
public final class ManualScheduler: Scheduler {
    public let clock: ManualClock
    private var deadlines = DeadlineQueue<() -> Void>()

    public init(_ clock: ManualClock = ManualClock()) { self.clock = clock }

    public var now: MonotonicInstant { clock.now }

    @discardableResult
    public func at(_ deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> TimerToken {
        deadlines.insert(handler, at: deadline)
    }

    public func cancel(_ token: TimerToken) { deadlines.cancel(token) }

    /// Handlers armed and not run yet.
    public var pending: Int { deadlines.count }

    /// When the next handler is due; nil when none is armed.
    public var nextDeadline: MonotonicInstant? { deadlines.earliest }

    /// Moves the clock by `duration`, running every handler due on the way.
    public func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }

    /// Moves the clock to `instant` (never back), running every handler due
    /// by then, including those armed on the way for an instant before it.
    public func advance(to instant: MonotonicInstant) {
        while let earliest = deadlines.earliest, earliest <= max(instant, now) {
            clock.advance(to: earliest)
            deadlines.beginFiring(at: now)
            while let entry = deadlines.nextToFire() { entry.payload() }
        }
        clock.advance(to: instant)
    }

    /// Runs what is due now (a handler armed for `now`, or earlier), as the
    /// loop's next turn would, without moving the clock.
    public func runDue() { advance(to: now) }
}
