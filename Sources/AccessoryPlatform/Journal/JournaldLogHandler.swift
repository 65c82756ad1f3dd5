import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes structured entries to journald through
/// `sd_journal_sendv`, so `journalctl -o json` shows every metadata key as a
/// field and MESSAGE_IDs can be filtered on.
public struct JournaldLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public let identifier: String

    public init(identifier: String, logLevel: Logger.Level = .info) {
        self.identifier = identifier
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if let error = event.error { merged["error"] = .string("\(error)") }
        let entry = JournalEntry(
            level: event.level, message: event.message.description, metadata: merged,
            identifier: identifier, file: event.file, line: event.line, function: event.function)
        Self.send(entry)
    }

    /// Writes one entry; each field is `NAME=value` in its own iovec, so
    /// values may contain newlines. A failure to log has nowhere to be
    /// reported but stderr.
    static func send(_ entry: JournalEntry) {
        let buffers = entry.fields.map { Array("\($0.name)=\($0.value)".utf8) }
        var storage = buffers.map { bytes -> UnsafeMutableRawBufferPointer in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            buffer.copyBytes(from: bytes)
            return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count])
        }
        defer { storage.forEach { $0.deallocate() } }
        var vectors = storage.map { iovec(iov_base: $0.baseAddress, iov_len: $0.count) }
        let result = sd_journal_sendv(&vectors, Int32(vectors.count))
        if result < 0 {
            StandardError.write("accessoryd: cannot write to the journal: \(String(cString: strerror(-result)))\n")
        }
        storage.removeAll()
    }

    /// Whether a journald is there to write to.
    public static var journalIsAvailable: Bool {
        access("/run/systemd/journal/socket", F_OK) == 0
    }
}
