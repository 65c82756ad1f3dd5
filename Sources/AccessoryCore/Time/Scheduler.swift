/// Where every component reads the time and arms its timers: the daemon's
/// event loop, or a `ManualScheduler` in tests. Injected, so a timeout is
/// tested by moving time, not by waiting for it, and nothing outside the
/// loop reads a system clock.
///
/// One way to arm: at an instant on this scheduler's clock (a delay is
/// `now.advanced(by:)`). An instant already past runs on a later turn,
/// never from inside `at`.
public protocol Scheduler: MonotonicClock, AnyObject {
    /// Runs `handler` once at `deadline`; returns a token to cancel it.
    @discardableResult
    func at(_ deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> TimerToken

    /// Withdraws a handler that has not run yet; nothing when it has, or was cancelled.
    func cancel(_ token: TimerToken)
}
