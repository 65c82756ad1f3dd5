/// One `--name` a command accepts: a flag, an option taking a value, or an
/// option that may be repeated to give several values.
public struct OptionDeclaration: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Present or not; may be repeated.
        case flag
        /// Takes one value (`--name VALUE` or `--name=VALUE`), at most once.
        case value
        /// Takes one value each time, and may be given again for more.
        case repeatedValue
    }

    /// What the shell may complete the value with.
    public enum Completion: Sendable, Equatable {
        case none
        case file
        case directory
        /// Words only the running program knows (ids of what a daemon holds):
        /// the script asks `ROOT --completion-words KIND` at completion time,
        /// which prints them one a line, or nothing (see `BashCompletion`).
        case words(String)
    }

    /// Without its dashes: `bus-address`.
    public var name: String
    public var kind: Kind
    public var help: String
    /// Shown as `<valueName>` in help and errors.
    public var valueName: String
    /// Shown as `(default: …)` in help; the command applies it.
    public var defaultValue: String?
    /// The values it accepts, when they are a fixed list: shown in help and offered by completion.
    public var choices: [String]
    public var isRequired: Bool
    public var completion: Completion
    /// The heading it is listed under in help (`nil`: OPTIONS).
    public var group: String?

    public init(
        _ name: String, kind: Kind = .value, valueName: String? = nil, help: String, defaultValue: String? = nil,
        choices: [String] = [], isRequired: Bool = false, completion: Completion = .none, group: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.valueName = valueName ?? name
        self.defaultValue = defaultValue
        self.choices = choices
        self.isRequired = isRequired
        self.completion = completion
        self.group = group
    }

    /// A flag: `--probe`.
    public static func flag(_ name: String, help: String, group: String? = nil) -> OptionDeclaration {
        OptionDeclaration(name, kind: .flag, help: help, group: group)
    }

    public var spelling: String { "--" + name }

    /// `--for <duration>`, or `--probe`: how help and errors name it.
    public var synopsis: String { kind == .flag ? spelling : "\(spelling) <\(valueName)>" }
}
