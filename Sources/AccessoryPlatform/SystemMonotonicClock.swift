import AccessoryCore
import Glibc

/// CLOCK_BOOTTIME: monotonic, and it keeps counting while the board
/// suspends, so an accessory silent through a suspend is seen as silent.
public struct SystemMonotonicClock: MonotonicClock, Sendable {
    public init() {}

    public var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }
}
