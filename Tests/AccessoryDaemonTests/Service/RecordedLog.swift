import Foundation
import Logging

/// Keeps what the service logs, so a test can read the journal fields it
/// would have written (`decided_by` becomes `DECIDED_BY`).
final class RecordedLog: @unchecked Sendable {
    struct Entry {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let lock = NSLock()
    private var recorded: [Entry] = []

    var entries: [Entry] { lock.withLock { recorded } }

    var logger: Logger { Logger(label: "test") { _ in Handler(log: self) } }

    /// The metadata value `key` of every entry that has it, in order.
    func values(of key: String) -> [String] {
        entries.compactMap { $0.metadata[key].map { "\($0)" } }
    }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let entry = Entry(level: event.level, message: event.message.description,
                              metadata: metadata.merging(event.metadata ?? [:]) { _, new in new })
            log.lock.withLock { log.recorded.append(entry) }
        }
    }
}
