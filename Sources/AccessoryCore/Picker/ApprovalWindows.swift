/// The administrator's policy: while an app's approval window is open
/// (`accessoryctl allow --app X --for 10m`, or a hook such as a button),
/// the first candidate found for that app is approved without asking.
public struct ApprovalWindows: Sendable {
    private var closing: [AppID: MonotonicInstant] = [:]

    public init() {}

    public mutating func open(for app: AppID, until deadline: MonotonicInstant) { closing[app] = deadline }

    /// Returns whether a window was open.
    @discardableResult
    public mutating func close(for app: AppID) -> Bool { closing.removeValue(forKey: app) != nil }

    public func isOpen(for app: AppID, at now: MonotonicInstant) -> Bool {
        guard let deadline = closing[app] else { return false }
        return now < deadline
    }

    /// Forgets windows that have closed by `now`, returning their apps.
    public mutating func expire(at now: MonotonicInstant) -> [AppID] {
        let over = closing.filter { $0.value <= now }.map(\.key)
        for app in over { closing.removeValue(forKey: app) }
        return over.sorted { $0.description < $1.description }
    }

    public var nextDeadline: MonotonicInstant? { closing.values.min() }

    public var open: [(app: AppID, until: MonotonicInstant)] {
        closing.map { ($0.key, $0.value) }.sorted { $0.app.description < $1.app.description }
    }
}
