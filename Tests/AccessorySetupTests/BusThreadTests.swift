import Glibc
import Testing
@testable import AccessorySetup

/// The session's bus thread inside an app.
struct BusThreadTests {
    /// In a child process, since it sets the process's environment.
    @Test func itLeavesTheAppsWatchdogToTheApp() async {
        await #expect(processExitsWith: .success) {
            // What systemd sets for an app's unit with WatchdogSec=60: the
            // keep-alive is the app's to send, from its own main loop.
            setenv("WATCHDOG_USEC", "60000000", 1)
            setenv("WATCHDOG_PID", "\(getpid())", 1)
            guard let thread = try? BusThread() else { exit(1) }
            let pings = try? await thread.perform { $0.loop.watchdogEnabled }
            exit(pings == false ? 0 : 2)
        }
    }
}
