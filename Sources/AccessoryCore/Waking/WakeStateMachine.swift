/// Decides when accessoryd wakes an app because an accessory it observes
/// appeared: inputs and the current instant in, `Action` values out; the
/// daemon's `AppWaker` carries them out (connects to the app's wake socket)
/// and arms one timer for `nextDeadline`.
///
/// The bound, per accessory: at most one wake per `interval` (60 s by
/// default), and after each failed wake the wait doubles (2, 4, … times
/// the interval, at most `maximumWait`, 1 h) until a wake succeeds. An
/// appearance inside the wait is kept, not lost: the app is woken when the
/// wait ends if the accessory is still there and the app still has no
/// session. So a flapping accessory starts its app at most once a minute.
public struct WakeStateMachine: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var interval: Duration
        public var maximumWait: Duration

        public init(interval: Duration = .seconds(60), maximumWait: Duration = .seconds(3600)) {
            self.interval = interval
            self.maximumWait = maximumWait
        }
    }

    public enum Action: Hashable, Sendable {
        /// Wake `app` for `accessory` now; answer with `woke` or `wakeFailed`.
        case wake(AccessoryID, AppID)
        /// Inside the bound: the app is woken at `until` if still wanted.
        case deferred(AccessoryID, AppID, until: MonotonicInstant)
        /// The wake failed `failures` times in a row; the next waits until `until`.
        case backedOff(AccessoryID, AppID, failures: Int, until: MonotonicInstant)
    }

    /// What is known of one observed accessory.
    struct Entry: Hashable, Sendable {
        var app: AppID
        var present = false
        /// A wake wanted but held back by the bound.
        var pending = false
        /// A wake the adapter is carrying out.
        var inFlight = false
        var lastAttempt: MonotonicInstant?
        var failures = 0
    }

    public let configuration: Configuration
    private(set) var entries: [AccessoryID: Entry] = [:]

    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The earliest instant a new wake of `id` may start.
    public func notBefore(_ id: AccessoryID) -> MonotonicInstant? {
        guard let entry = entries[id], let last = entry.lastAttempt else { return nil }
        return last.advanced(by: wait(afterFailures: entry.failures))
    }

    /// When `deadlineReached` has something to do; nil when nothing waits.
    public var nextDeadline: MonotonicInstant? {
        entries.keys.filter { entries[$0]!.pending }.compactMap { notBefore($0) }.min()
    }

    /// An accessory the app observes appeared (or was found present when the wish was made).
    public mutating func appeared(_ id: AccessoryID, app: AppID, appHasSession: Bool, at now: MonotonicInstant) -> [Action] {
        var entry = entries[id] ?? Entry(app: app)
        entry.app = app
        entry.present = true
        entries[id] = entry
        // A running app with a session hears of it there (PropertiesChanged).
        guard !appHasSession, !entry.inFlight else { return [] }
        if let due = notBefore(id), now < due {
            entries[id]?.pending = true
            return [.deferred(id, app, until: due)]
        }
        return [start(id, at: now)]
    }

    /// The accessory left: a wake held back for it is no longer wanted.
    public mutating func left(_ id: AccessoryID) {
        entries[id]?.present = false
        entries[id]?.pending = false
    }

    /// The wish was withdrawn or the grant removed: nothing more for it.
    public mutating func stopped(_ id: AccessoryID) {
        entries[id] = nil
    }

    public mutating func woke(_ id: AccessoryID) {
        entries[id]?.inFlight = false
        entries[id]?.failures = 0
    }

    public mutating func wakeFailed(_ id: AccessoryID, at now: MonotonicInstant) -> [Action] {
        guard var entry = entries[id] else { return [] }
        entry.inFlight = false
        entry.failures += 1
        entries[id] = entry
        // Still wanted: try again when the wait is over.
        if entry.present { entries[id]?.pending = true }
        return [.backedOff(id, entry.app, failures: entry.failures, until: notBefore(id) ?? now)]
    }

    /// The timer for `nextDeadline` fired: wakes held back whose wait is over,
    /// unless their app has opened a session meanwhile.
    public mutating func deadlineReached(appsWithSessions: Set<AppID>, at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        for id in entries.keys.sorted() {
            guard let entry = entries[id], entry.pending, let due = notBefore(id), due <= now else { continue }
            entries[id]?.pending = false
            guard entry.present, !entry.inFlight, !appsWithSessions.contains(entry.app) else { continue }
            actions.append(start(id, at: now))
        }
        return actions
    }

    private mutating func start(_ id: AccessoryID, at now: MonotonicInstant) -> Action {
        entries[id]?.pending = false
        entries[id]?.inFlight = true
        entries[id]?.lastAttempt = now
        return .wake(id, entries[id]!.app)
    }

    private func wait(afterFailures failures: Int) -> Duration {
        var wait = configuration.interval
        for _ in 0..<min(failures, 32) {
            wait = wait * 2
            if wait >= configuration.maximumWait { return configuration.maximumWait }
        }
        return min(wait, configuration.maximumWait)
    }
}
