/// Folds repeated identical log lines from one app into one line with a
/// count, as a value: the first line of a kind is written at once; the same
/// line from the same app within `window` is only counted; when the window
/// ends, one line says how many were folded. Audit entries (decisions,
/// grants, removals) never come here: they are written whole, every one.
/// Bounded: past `capacity` kinds at once, lines are written unfolded
/// rather than remembered.
public struct LogFold: Sendable {
    public struct Key: Hashable, Sendable {
        public var app: AppID
        public var line: String
    }

    /// Lines folded away for one kind, reported when its window ends.
    public struct Folded: Equatable, Sendable {
        public var app: AppID
        public var line: String
        public var count: Int
    }

    public let window: Duration
    public let capacity: Int
    private var open: [Key: (until: MonotonicInstant, count: Int)] = [:]

    public init(window: Duration = .seconds(10), capacity: Int = 4096) {
        self.window = window
        self.capacity = capacity
    }

    /// Whether to write `line` of `app` now (true) or count it (false).
    public mutating func admit(_ app: AppID, _ line: String, at now: MonotonicInstant) -> Bool {
        let key = Key(app: app, line: line)
        if let entry = open[key], now < entry.until {
            open[key] = (entry.until, entry.count + 1)
            return false
        }
        guard open.count < capacity || open[key] != nil else { return true }
        open[key] = (now.advanced(by: window), 0)
        return true
    }

    /// The windows ended by `now`: the kinds with lines folded away, to
    /// report; they are forgotten either way.
    public mutating func due(at now: MonotonicInstant) -> [Folded] {
        var folded: [Folded] = []
        for (key, entry) in open where entry.until <= now {
            if entry.count > 0 { folded.append(Folded(app: key.app, line: key.line, count: entry.count)) }
            open.removeValue(forKey: key)
        }
        return folded.sorted { ($0.app.description, $0.line) < ($1.app.description, $1.line) }
    }

    /// When the next window ends, if any is open.
    public var nextDeadline: MonotonicInstant? { open.values.map(\.until).min() }
}
