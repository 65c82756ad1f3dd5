/// The options and arguments given to one command, by name, as text. The
/// command converts them to its own types through `value(_:_:)` and
/// friends, whose failures name the option.
public struct ParsedCommandLine: Sendable {
    public let command: CommandDeclaration
    /// Every value given, by option name, in order; a flag has one empty value per use.
    var optionValues: [String: [String]] = [:]
    /// The positional arguments, by declared name.
    var argumentValues: [String: [String]] = [:]

    init(command: CommandDeclaration) { self.command = command }

    public func flag(_ name: String) -> Bool { optionValues[name] != nil }

    /// The option's value, or nil when it was not given.
    public func value(_ name: String) -> String? { optionValues[name]?.last }

    /// Every value of a repeatable option.
    public func values(_ name: String) -> [String] { optionValues[name] ?? [] }

    /// A positional argument's value (the first of a list).
    public func argument(_ name: String) -> String? { argumentValues[name]?.first }

    /// Every value of the argument taking what follows `--`.
    public func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }

    /// The option's value converted; `convert` answers nil (or throws
    /// `InvalidValue` with a reason) for a value that does not fit.
    public func value<Value>(
        _ name: String, _ convert: (String) throws(InvalidValue) -> Value?
    ) throws(CommandLineError) -> Value? {
        guard let text = value(name) else { return nil }
        return try Self.convert(text, target: command.option(named: name)?.synopsis ?? "--" + name, convert)
    }

    /// A positional argument's value converted, as `value(_:_:)` does.
    public func argument<Value>(
        _ name: String, _ convert: (String) throws(InvalidValue) -> Value?
    ) throws(CommandLineError) -> Value? {
        guard let text = argument(name) else { return nil }
        return try Self.convert(text, target: "<\(name)>", convert)
    }

    /// A required option's value converted (the parser has made sure it was given).
    public func required<Value>(
        _ name: String, _ convert: (String) throws(InvalidValue) -> Value?
    ) throws(CommandLineError) -> Value {
        guard let value = try value(name, convert) else {
            throw .missingArgument(command.option(named: name)?.synopsis ?? "--" + name)
        }
        return value
    }

    /// A required positional argument's value converted.
    public func requiredArgument<Value>(
        _ name: String, _ convert: (String) throws(InvalidValue) -> Value?
    ) throws(CommandLineError) -> Value {
        guard let value = try argument(name, convert) else { throw .missingArgument("<\(name)>") }
        return value
    }

    /// A required positional argument's text.
    public func requiredArgument(_ name: String) throws(CommandLineError) -> String {
        try requiredArgument(name) { $0 }
    }

    /// A required option's text.
    public func required(_ name: String) throws(CommandLineError) -> String {
        try required(name) { $0 }
    }

    /// A value from a fixed list (`--log-target auto`): one of the option's choices.
    public func choice<Value: RawRepresentable<String>>(_ name: String, as: Value.Type) throws(CommandLineError) -> Value? {
        guard let text = value(name) else { return nil }
        if let value = Value(rawValue: text) { return value }
        let choices = command.option(named: name)?.choices ?? []
        throw .invalidValue(
            value: text, target: command.option(named: name)?.synopsis ?? "--" + name,
            reason: choices.isEmpty ? nil : "choose " + choices.joined(separator: ", "))
    }

    private static func convert<Value>(
        _ text: String, target: String, _ convert: (String) throws(InvalidValue) -> Value?
    ) throws(CommandLineError) -> Value {
        do throws(InvalidValue) {
            guard let value = try convert(text) else { throw InvalidValue(nil) }
            return value
        } catch {
            throw .invalidValue(value: text, target: target, reason: error.reason)
        }
    }
}

/// Why a value does not fit, thrown by a conversion.
public struct InvalidValue: Error, Sendable {
    public var reason: String?
    public init(_ reason: String?) { self.reason = reason }
}
