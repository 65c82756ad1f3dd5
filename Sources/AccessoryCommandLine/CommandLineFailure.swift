/// A command line that could not be parsed: what was wrong, and the command
/// it was wrong for (its usage line goes with the message).
public struct CommandLineFailure: Error, Sendable {
    public var error: CommandLineError
    public var path: [CommandDeclaration]

    public init(_ error: CommandLineError, path: [CommandDeclaration]) {
        self.error = error
        self.path = path
    }
}

extension CommandLineFailure {
    /// What to print on standard error: the error, the command's usage, where to read more.
    public var message: String {
        let names = path.map(\.name).joined(separator: " ")
        return "Error: \(error)\n" + HelpText.usage(path, label: "Usage: ")
            + "\n  See '\(names) --help' for more information.\n"
    }
}
