import AccessoryPlatform
import Logging

/// Where log records go.
public enum LogTarget: String, CaseIterable, Sendable {
    /// Console when stderr is a terminal, else the journal when one runs, else the console.
    case auto
    case console
    case journal

    /// The concrete target for this process.
    public var resolved: LogTarget {
        switch self {
        case .auto:
            if StandardError.isTerminal { return .console }
            return JournaldLogHandler.journalIsAvailable ? .journal : .console
        case .journal:
            // Entries sent to a journald that is not there are lost: stderr keeps them.
            return JournaldLogHandler.journalIsAvailable ? .journal : .console
        case .console:
            return self
        }
    }

    /// The journal was wanted (asked for, or `auto` off a terminal) but no
    /// journald runs: the logs go to stderr, and the daemon should say so.
    public var journalWantedButAbsent: Bool {
        switch self {
        case .console: false
        case .auto: !StandardError.isTerminal && !JournaldLogHandler.journalIsAvailable
        case .journal: !JournaldLogHandler.journalIsAvailable
        }
    }

    /// Installs the handler for the whole process; call once, first thing.
    public func bootstrap(identifier: String) {
        let target = resolved
        LoggingSystem.bootstrap { _ in
            switch target {
            case .journal: JournaldLogHandler(identifier: identifier, logLevel: .trace)
            default: ConsoleLogHandler(logLevel: .trace)
            }
        }
    }
}
