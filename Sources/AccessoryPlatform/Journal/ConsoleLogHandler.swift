import AccessoryCore
import Glibc
import Logging

/// Human-readable lines on stderr, for a terminal or `--log-target=console`:
/// `10:42:07.123 notice accessoryd is ready [bluetooth.controllers=2]`.
public struct ConsoleLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level

    public init(logLevel: Logger.Level = .info) {
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if let error = event.error { merged["error"] = .string("\(error)") }
        let text = Self.format(
            time: Self.wallClock(), level: event.level, message: event.message.description, metadata: merged)
        StandardError.write(text + "\n")
    }

    static func format(time: String, level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let fields = metadata
            .filter { $0.key != MessageID.metadataKey }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\(DisplayText.escaped($0.value.description))" }
        let suffix = fields.isEmpty ? "" : " [" + fields.joined(separator: " ") + "]"
        let name = level.rawValue.padding(toLength: 8)
        // One event, one line: an app's name with a newline or an escape
        // sequence in it neither forges a line nor drives the terminal.
        return "\(time) \(name)\(DisplayText.escaped(message))\(suffix)"
    }

    /// Local time of day with milliseconds, without Foundation. The one wall
    /// clock the daemon reads (an exception listed in README's "Time"): it
    /// labels a line for the person reading it and decides nothing, and the
    /// scheduler's monotonic clock cannot say what time of day it is.
    static func wallClock() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)"
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
