/// What was wrong with a command line, worded as the person typing it needs
/// it: each names the option or argument and the rule it broke.
public enum CommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownOption(String)
    case unexpectedArgument(String)
    /// `--name` at the end of the line, or followed by another option.
    case missingValue(option: String)
    /// A required option (its synopsis) or positional argument (`<name>`) not given.
    case missingArgument(String)
    /// An option that takes one value, given more than once.
    case repeatedOption(option: String)
    /// A flag given a value (`--probe=yes`).
    case flagWithValue(flag: String)
    /// `value` does not fit `target` (an option's synopsis or `<name>`); `reason` says why when known.
    case invalidValue(value: String, target: String, reason: String?)
    /// A rule of the command's own (between its options, or on what a value means), checked by the command.
    case rule(String)

    public var description: String {
        switch self {
        case .unknownOption(let option): "Unknown option '\(option)'"
        case .unexpectedArgument(let argument): "Unexpected argument '\(argument)'"
        case .missingValue(let option): "Missing value for '\(option)'"
        case .missingArgument(let name): "Missing expected argument '\(name)'"
        case .repeatedOption(let option): "The option '\(option)' may be given only once"
        case .flagWithValue(let flag): "The flag '\(flag)' takes no value"
        case .invalidValue(let value, let target, let reason):
            "The value '\(value)' is invalid for '\(target)'" + (reason.map { ": " + $0 } ?? "")
        case .rule(let text): text
        }
    }
}
