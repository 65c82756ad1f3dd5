import AccessoryPlatform
import Glibc

/// Waiting between the records of a replayed capture. A replay process does
/// nothing else meanwhile, so it simply sleeps; the event loop's timers
/// coalesce to a quarter second, too coarse for a capture's pace.
public enum ReplayPacing {
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        // Interrupted by a signal: sleep what is left. nanosleep (CLOCK_MONOTONIC
        // on Linux) reports EINTR through errno, as the retry expects.
        _ = retryingOnInterrupt {
            defer { request = remaining }
            return nanosleep(&request, &remaining)
        }
    }
}
