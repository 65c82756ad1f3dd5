import AccessoryCore
import Glibc

/// CLOCK_BOOTTIME: monotonic, and it keeps counting while the board
/// suspends, so an accessory silent through a suspend is seen as silent.
/// The event loop's timer runs on the same clock, so deadlines read here
/// expire on time after a suspend too.
public struct SystemMonotonicClock: MonotonicClock, Sendable {
    /// The kernel clock read here and the one the loop's timer is armed on.
    static let clockID = CLOCK_BOOTTIME

    public init() {}

    public var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(Self.clockID, &time)
        return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }
}

extension MonotonicInstant {
    /// This instant of `SystemMonotonicClock` in sd-event's unit for the same
    /// clock: microseconds since the same epoch, rounded up so that a timer
    /// firing there finds the instant reached. No overflow: `.max` becomes
    /// UInt64.max / 1000 + 1, far below sd-event's "infinity".
    var bootTimeMicrosecondsRoundedUp: UInt64 {
        nanoseconds / 1_000 + (nanoseconds % 1_000 == 0 ? 0 : 1)
    }
}
