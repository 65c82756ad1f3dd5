import Glibc
import Testing
@testable import AccessoryPlatform

/// The systemd watchdog keep-alive is the daemon's loops' business only.
/// In a child process, since it sets the process's environment.
struct EventLoopWatchdogTests {
    @Test func aLoopPingsTheWatchdogTheUnitAsksForUnlessToldNotTo() async {
        await #expect(processExitsWith: .success) {
            // What systemd sets for a unit with WatchdogSec=60.
            setenv("WATCHDOG_USEC", "60000000", 1)
            setenv("WATCHDOG_PID", "\(getpid())", 1)
            guard let daemonLoop = try? EventLoop(), daemonLoop.watchdogEnabled else { exit(1) }
            guard let clientLoop = try? EventLoop(pingsWatchdog: false), !clientLoop.watchdogEnabled else { exit(2) }
            exit(0)
        }
    }
}
