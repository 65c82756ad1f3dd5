import AccessoryCore
import CSystemd
import Glibc

/// The daemon's one event loop, on sd-event: it owns every socket, timer and
/// signal, so nothing else in the daemon blocks, polls or spawns threads.
/// Idle means asleep in epoll.
///
/// Timed work (`at`, through `Scheduler`) waits in one `DeadlineQueue` served by a single
/// sd-event timer source on CLOCK_BOOTTIME, the clock `SystemMonotonicClock`
/// reads deadlines from: armed for the earliest deadline, it runs every
/// handler due when it fires, in due order, then re-arms for the next one or
/// turns off. CLOCK_BOOTTIME counts while the board suspends, so on resume
/// everything that fell due during the sleep runs at once instead of late.
///
/// Not thread-safe by design: create it and use it on one thread.
public final class EventLoop: Scheduler {
    public typealias Handler = () -> Void

    /// The sd_event, for sd-bus to attach to; nothing else should touch it.
    let event: OpaquePointer
    /// Handlers by their source, kept alive while the source exists.
    private var handlers: [OpaquePointer: Handler] = [:]
    private var ioHandlers: [OpaquePointer: (UInt32) -> Void] = [:]

    /// Where every loop reads deadlines; the timer below is armed on the same
    /// clock. Public for what must be made before its loop (the daemon's
    /// discovery pipeline), so that it names this clock rather than another.
    public static let clock = SystemMonotonicClock()
    private var clock: SystemMonotonicClock { Self.clock }
    /// Every pending `at` handler, by deadline.
    private var deadlines = DeadlineQueue<Handler>()
    /// The loop's only timer source: off while `deadlines` is empty.
    private let timer: OpaquePointer
    /// Set while due handlers run: what they arm or cancel is armed once, after them.
    private var firingDeadlines = false
    /// Fire every deadline on time instead of within sd-event's 250 ms window:
    /// for a replay keeping a capture's pace, which has nothing to coalesce with.
    public var preciseTimers = false

    /// A loop for the calling thread that sends WATCHDOG=1 itself when the
    /// unit sets WatchdogSec=, so a stuck loop is exactly what the watchdog
    /// catches: the daemon's loops.
    public convenience init() throws(SystemError) {
        try self.init(pingsWatchdog: true)
    }

    /// A loop for the calling thread; `pingsWatchdog` false for one that is
    /// not its process's heartbeat: a client library's thread inside an app
    /// must not keep the app's watchdog alive while the app is stuck.
    public init(pingsWatchdog: Bool) throws(SystemError) {
        var event: OpaquePointer?
        let result = sd_event_new(&event)
        guard result >= 0, let event else { throw SystemError(operation: "sd_event_new", errno: -result) }
        self.event = event
        // Accuracy 0 is sd-event's default window (250 ms) to coalesce wake-ups with other work.
        var timer: OpaquePointer?
        let added = sd_event_add_time(event, &timer, SystemMonotonicClock.clockID, UInt64.max, 0, { _, _, userdata in
            EventLoop.from(userdata).deadlinesReached()
            return 0
        }, nil)
        guard added >= 0, let timer else {
            sd_event_unref(event)
            throw SystemError(operation: "sd_event_add_time", errno: -added)
        }
        self.timer = timer
        _ = sd_event_source_set_enabled(timer, Int32(SD_EVENT_OFF))
        sd_event_source_set_userdata(timer, Unmanaged.passUnretained(self).toOpaque())
        if pingsWatchdog { _ = sd_event_set_watchdog(event, 1) }
    }

    deinit {
        sd_event_source_disable_unref(timer)
        for source in handlers.keys { sd_event_source_unref(source) }
        for source in ioHandlers.keys { sd_event_source_unref(source) }
        sd_event_unref(event)
    }

    /// Whether systemd asked for watchdog pings (WatchdogSec= in the unit).
    public var watchdogEnabled: Bool { sd_event_get_watchdog(event) > 0 }

    /// Delivers `signal` to `handler` on the loop. Blocks the signal for the
    /// process first, as signalfd requires; call before any thread starts.
    public func onSignal(_ signal: Int32, _ handler: @escaping Handler) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_BLOCK, &set, nil)
        var source: OpaquePointer?
        let result = sd_event_add_signal(event, &source, signal, { source, _, userdata in
            EventLoop.from(userdata).fire(source)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let source else { throw SystemError(operation: "sd_event_add_signal", errno: -result) }
        handlers[source] = handler
    }

    /// Runs `handler` at the end of every loop iteration that handled
    /// something, before the loop waits again: for work best done once per
    /// burst rather than per event (the monitor writes its lines then). It
    /// never wakes an idle loop by itself.
    public func afterEachBusyIteration(_ handler: @escaping Handler) throws(SystemError) {
        var source: OpaquePointer?
        let result = sd_event_add_post(event, &source, { source, userdata in
            EventLoop.from(userdata).fire(source)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let source else { throw SystemError(operation: "sd_event_add_post", errno: -result) }
        handlers[source] = handler
    }

    /// The loop's clock (CLOCK_BOOTTIME): the one every component reads, through `Scheduler`.
    public var now: MonotonicInstant { clock.now }

    /// Runs `handler` once at `instant` on `SystemMonotonicClock` (CLOCK_BOOTTIME),
    /// the clock deadlines are read from; an instant already past runs on the
    /// next loop iteration, never from inside this call. Returns a token to
    /// cancel it. Should sd-event refuse to arm its timer (only a broken or
    /// finished loop does), the handler stays queued and the next arming
    /// that succeeds covers it.
    @discardableResult
    public func at(_ instant: MonotonicInstant, _ handler: @escaping Handler) -> TimerToken {
        let token = deadlines.insert(handler, at: instant)
        try? armTimer()
        return token
    }

    /// Withdraws a handler that has not run yet; nothing when it has, or was cancelled.
    public func cancel(_ token: TimerToken) {
        guard deadlines.cancel(token) != nil else { return }
        // Disarming, or moving the time later, cannot fail on a live source;
        // were it to, the timer would only wake once for nothing.
        try? armTimer()
    }

    /// Calls `handler` with the epoll events whenever `fd` is readable (or
    /// hangs up). The caller keeps owning the descriptor; `stopWatching` before closing it.
    public func watch(fd: Int32, _ handler: @escaping (UInt32) -> Void) throws(SystemError) -> WatchToken {
        var source: OpaquePointer?
        let result = sd_event_add_io(event, &source, fd, UInt32(EPOLLIN.rawValue), { source, _, revents, userdata in
            let loop = EventLoop.from(userdata)
            if let source, let handler = loop.ioHandlers[source] { handler(revents) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let source else { throw SystemError(operation: "sd_event_add_io", errno: -result) }
        ioHandlers[source] = handler
        return WatchToken(source: source)
    }

    public func stopWatching(_ token: WatchToken) {
        guard ioHandlers.removeValue(forKey: token.source) != nil else { return }
        sd_event_source_unref(token.source)
    }

    /// Runs until `exit(code:)`; returns that code.
    public func run() throws(SystemError) -> Int32 {
        let result = sd_event_loop(event)
        guard result >= 0 else { throw SystemError(operation: "sd_event_loop", errno: -result) }
        return result
    }

    public func exit(code: Int32) { _ = sd_event_exit(event, code) }

    /// Runs at most one iteration, waiting up to `timeout`; for tests that drive the loop.
    public func runOnce(timeout: Duration) -> Bool {
        let microseconds = UInt64(max(0, timeout.components.seconds)) * 1_000_000
            + UInt64(max(0, timeout.components.attoseconds / 1_000_000_000_000))
        return sd_event_run(event, microseconds) > 0
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(userdata!).takeUnretainedValue()
    }

    private func fire(_ source: OpaquePointer?) {
        guard let source, let handler = handlers[source] else { return }
        handler()
    }

    /// The timer fired (sd-event turned the one-shot source off first): runs
    /// every handler due by now, earliest first. What they arm waits for a
    /// later iteration, even when due at once, so a handler re-arming with
    /// `.zero` cannot keep the loop from its other sources.
    private func deadlinesReached() {
        firingDeadlines = true
        deadlines.beginFiring(at: clock.now)
        while let entry = deadlines.nextToFire() { entry.payload() }
        firingDeadlines = false
        // Only a broken source fails here; the next `at` tries again.
        try? armTimer()
    }

    /// Points the timer at the earliest deadline, or turns it off when there is none.
    private func armTimer() throws(SystemError) {
        guard !firingDeadlines else { return }
        guard let earliest = deadlines.earliest else {
            _ = sd_event_source_set_enabled(timer, Int32(SD_EVENT_OFF))
            return
        }
        // A deadline already due runs on the next iteration, not somewhere in the coalescing window.
        let accuracy: UInt64 = preciseTimers || earliest <= clock.now ? 1 : 0
        var result = sd_event_source_set_time(timer, earliest.bootTimeMicrosecondsRoundedUp)
        guard result >= 0 else { throw SystemError(operation: "sd_event_source_set_time", errno: -result) }
        result = sd_event_source_set_time_accuracy(timer, accuracy)
        guard result >= 0 else { throw SystemError(operation: "sd_event_source_set_time_accuracy", errno: -result) }
        result = sd_event_source_set_enabled(timer, Int32(SD_EVENT_ONESHOT))
        guard result >= 0 else { throw SystemError(operation: "sd_event_source_set_enabled", errno: -result) }
    }

    /// For tests: the clock of the loop's one timer source.
    var timerClock: clockid_t? {
        var clock = clockid_t()
        return sd_event_source_get_time_clock(timer, &clock) >= 0 ? clock : nil
    }

    /// For tests: when the timer source will fire (µs on its clock), nil while it is off.
    var timerArmedAt: UInt64? {
        var enabled: Int32 = 0
        var time: UInt64 = 0
        guard sd_event_source_get_enabled(timer, &enabled) >= 0, enabled != Int32(SD_EVENT_OFF),
              sd_event_source_get_time(timer, &time) >= 0 else { return nil }
        return time
    }

    /// For tests: handlers waiting for their deadline.
    var pendingTimers: Int { deadlines.count }
}

public struct WatchToken: Hashable {
    fileprivate let source: OpaquePointer
}
