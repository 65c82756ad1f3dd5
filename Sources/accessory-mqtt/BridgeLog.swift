import AccessoryCore
import AccessoryMQTT
import AccessoryPlatform
import CSystemd
import Glibc

/// Where the bridge's lines go: the journal, natively (with MESSAGE_ID and
/// fields), when stderr is the journal stream systemd gave the unit
/// (`$JOURNAL_STREAM` names its device and inode); stderr otherwise, as a
/// terminal or a test reads it. Text from outside (libmosquitto, accessory
/// names) is escaped either way.
enum BridgeLog {
    static let identifier = "accessory-mqtt"

    /// Whether stderr is the unit's journal stream (systemd.exec(5), `JOURNAL_STREAM`).
    static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, fstat(2, &status) == 0 else { return false }
        return parts[0] == "\(status.st_dev)" && parts[1] == "\(status.st_ino)"
    }()

    static func write(_ line: String, event: BridgeEvent?, fields: [String: String], priority: Int) {
        let text = DisplayText.escaped(line)
        guard toJournal else {
            StandardError.write("\(identifier): \(text)\n")
            return
        }
        var assignments = ["MESSAGE=\(text)", "PRIORITY=\(priority)", "SYSLOG_IDENTIFIER=\(identifier)"]
        if let event { assignments.append("MESSAGE_ID=\(event.rawValue)") }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { assignments.append("\(name)=\(DisplayText.escaped(value))") }
        // One iovec per NAME=value, so a value may hold a newline.
        let storage = assignments.map { assignment -> UnsafeMutableRawBufferPointer in
            let bytes = Array(assignment.utf8)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
            buffer.copyBytes(from: bytes)
            return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count])
        }
        defer { storage.forEach { $0.deallocate() } }
        var vectors = storage.map { iovec(iov_base: $0.baseAddress, iov_len: $0.count) }
        if sd_journal_sendv(&vectors, Int32(vectors.count)) < 0 { StandardError.write("\(identifier): \(text)\n") }
    }
}

/// A line for the journal (or stderr), with its MESSAGE_ID when it is one of the bridge's events.
func log(_ line: String, _ event: BridgeEvent? = nil, _ fields: [String: String] = [:], priority: Int = 6) {
    BridgeLog.write(line, event: event, fields: fields, priority: priority)
}
