/// What one app may make accessoryd read or hold (`[Limits]` in
/// accessoryd.conf). Every byte an app sends is hostile until checked: these
/// caps keep one app's flood from costing the daemon memory or time that
/// another app's picker needs. Going over one is `invalidRequest` naming the
/// limit (`… over the limit StringLength=1024`), and nothing is kept of the call.
public struct AppLimits: Equatable, Sendable {
    public enum Limit: String, CaseIterable, Sendable {
        case sessionsPerApp = "SessionsPerApp"
        case displayItems = "DisplayItems"
        case migrationItems = "MigrationItems"
        case dictionaryEntries = "DictionaryEntries"
        case stringLength = "StringLength"
        case argumentBytes = "ArgumentBytes"
        case requestsPerMinute = "RequestsPerMinute"
        case requestBurst = "RequestBurst"
    }

    /// Sessions an app holds at once, its connections' together (an
    /// invalidated one counts until it goes: its caller leaves the bus, or,
    /// persistent, the next minute's sweep).
    public var sessionsPerApp = 16
    /// Display items in one `ShowPicker`.
    public var displayItems = 64
    /// Items in one `Migrate`.
    public var migrationItems = 256
    /// Entries in one dictionary (`a{ss}`: a descriptor, picker or
    /// authorization settings) and in one list of words (`as`).
    public var dictionaryEntries = 32
    /// Bytes (UTF-8) of any one string an app sends: a name, a path, a value.
    public var stringLength = 1024
    /// Bytes of one call's arguments together: every string's bytes, plus
    /// 8 for each element of an array, so a long array of empty strings counts.
    public var argumentBytes = 256 * 1024
    /// Requests one app may make per minute, on average (`RequestRate`):
    /// sessions opened, pickers shown, migrations, renames, removals,
    /// channels and hotspot joins. Each accepted one may write an audit
    /// line, so this bounds what one app can make accessoryd write.
    public var requestsPerMinute = 60
    /// Requests one app may make at once before `RequestsPerMinute` applies.
    public var requestBurst = 20

    /// One open setup request (picker or migration) per app: the API's own
    /// rule (`pickerAlreadyActive`), so not a key.
    public static let requestsPerApp = 1

    public init() {}

    public subscript(limit: Limit) -> Int {
        get {
            switch limit {
            case .sessionsPerApp: sessionsPerApp
            case .displayItems: displayItems
            case .migrationItems: migrationItems
            case .dictionaryEntries: dictionaryEntries
            case .stringLength: stringLength
            case .argumentBytes: argumentBytes
            case .requestsPerMinute: requestsPerMinute
            case .requestBurst: requestBurst
            }
        }
        set {
            switch limit {
            case .sessionsPerApp: sessionsPerApp = newValue
            case .displayItems: displayItems = newValue
            case .migrationItems: migrationItems = newValue
            case .dictionaryEntries: dictionaryEntries = newValue
            case .stringLength: stringLength = newValue
            case .argumentBytes: argumentBytes = newValue
            case .requestsPerMinute: requestsPerMinute = newValue
            case .requestBurst: requestBurst = newValue
            }
        }
    }

    /// The refusal's text: what was sent, and which limit it breaks.
    public func refusal(_ limit: Limit, _ what: String) -> String {
        "\(what): over the limit \(limit.rawValue)=\(self[limit])"
    }

    /// A value for a key: a whole number from 1 to 2^31 - 1.
    static func parse(_ text: String) -> Int? {
        guard let value = Int(text), value >= 1, value <= Int(Int32.max) else { return nil }
        return value
    }
}
