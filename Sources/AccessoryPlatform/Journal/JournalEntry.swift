import AccessoryCore
import Logging

/// The fields of one journald entry, built from a swift-log record. Kept
/// apart from the sending so that what reaches the journal can be tested
/// without a journal.
public struct JournalEntry: Equatable, Sendable {
    /// Field assignments in order, `NAME` and value. The message and the
    /// metadata carry text from apps and radios: their control and format
    /// characters are escaped (`DisplayText`), so no entry holds a raw one.
    public var fields: [(name: String, value: String)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public init(
        level: Logger.Level, message: String, metadata: Logger.Metadata,
        identifier: String, file: String, line: UInt, function: String
    ) {
        var fields: [(String, String)] = [
            ("MESSAGE", DisplayText.escaped(message)),
            ("PRIORITY", String(Self.priority(level))),
            ("SYSLOG_IDENTIFIER", identifier),
            ("CODE_FILE", file),
            ("CODE_LINE", String(line)),
            ("CODE_FUNC", function),
        ]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            Self.flatten(key: key, value: value, into: &fields)
        }
        self.fields = fields
    }

    /// syslog priorities as journald and `journalctl -p` know them.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func flatten(key: String, value: Logger.MetadataValue, into fields: inout [(String, String)]) {
        switch value {
        case .dictionary(let nested):
            for (subkey, subvalue) in nested.sorted(by: { $0.key < $1.key }) {
                flatten(key: key + "." + subkey, value: subvalue, into: &fields)
            }
        case .array(let items):
            fields.append((JournalFieldName.mapping(key), DisplayText.escaped(items.map(\.description).joined(separator: ","))))
        case .string(let text):
            fields.append((JournalFieldName.mapping(key), DisplayText.escaped(text)))
        case .stringConvertible(let item):
            fields.append((JournalFieldName.mapping(key), DisplayText.escaped(item.description)))
        }
    }
}
