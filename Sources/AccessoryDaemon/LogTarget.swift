import AccessorySystem
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
        case .console, .journal:
            return self
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
