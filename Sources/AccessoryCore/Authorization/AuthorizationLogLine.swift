/// A journal line the authorization core wants written. The core logs
/// nothing itself: the daemon's adapter writes these with its logger, so
/// the rules stay free of I/O and a test can read what would be logged.
public struct AuthorizationLogLine: Hashable, Sendable {
    public enum Level: Hashable, Sendable {
        case debug, info, notice, warning, error
    }

    public enum Value: Hashable, Sendable {
        case string(String)
        case array([String])
    }

    /// The operator-relevant event class, when the line is one.
    public var event: MessageID?
    public var level: Level
    public var message: String
    public var metadata: [String: Value]

    public init(_ event: MessageID?, _ level: Level, _ message: String, _ metadata: [String: Value] = [:]) {
        self.event = event
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}

extension AuthorizationLogLine.Value: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .string(value) }
}
