/// Where the agent reads the time. Injected, so tests drive time by hand and
/// nothing in Core reads a system clock.
public protocol MonotonicClock {
    var now: MonotonicInstant { get }
}
