import CSystemd
import Glibc

/// The daemon's one event loop, on sd-event: it owns every socket, timer and
/// signal, so nothing else in the daemon blocks, polls or spawns threads.
/// Idle means asleep in epoll; timers are coalesced by sd-event.
///
/// Not thread-safe by design: create it and use it on one thread.
public final class EventLoop {
    public typealias Handler = () -> Void

    /// The sd_event, for sd-bus to attach to; nothing else should touch it.
    let event: OpaquePointer
    /// Handlers by their source, kept alive while the source exists.
    private var handlers: [OpaquePointer: Handler] = [:]
    private var ioHandlers: [OpaquePointer: (UInt32) -> Void] = [:]

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
        if pingsWatchdog { _ = sd_event_set_watchdog(event, 1) }
    }

    deinit {
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

    /// Runs `handler` once after `delay` (CLOCK_MONOTONIC), with sd-event's
    /// default coalescing accuracy. Returns a token to cancel it.
    @discardableResult
    public func after(_ delay: Duration, _ handler: @escaping Handler) throws(SystemError) -> TimerToken {
        let microseconds = UInt64(max(0, delay.components.seconds)) * 1_000_000
            + UInt64(max(0, delay.components.attoseconds / 1_000_000_000_000))
        var source: OpaquePointer?
        let result = sd_event_add_time_relative(event, &source, CLOCK_MONOTONIC, microseconds, 0, { source, _, userdata in
            let loop = EventLoop.from(userdata)
            if let source { loop.fireOnce(source) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let source else { throw SystemError(operation: "sd_event_add_time_relative", errno: -result) }
        handlers[source] = handler
        return TimerToken(source: source)
    }

    public func cancel(_ token: TimerToken) {
        guard handlers.removeValue(forKey: token.source) != nil else { return }
        sd_event_source_unref(token.source)
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

    private func fireOnce(_ source: OpaquePointer) {
        guard let handler = handlers.removeValue(forKey: source) else { return }
        // A one-shot source is off after it fires; drop our reference to it.
        sd_event_source_unref(source)
        handler()
    }
}

public struct TimerToken: Hashable {
    fileprivate let source: OpaquePointer
}

public struct WatchToken: Hashable {
    fileprivate let source: OpaquePointer
}
