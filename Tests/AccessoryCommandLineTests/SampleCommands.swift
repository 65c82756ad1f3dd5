import AccessoryCommandLine

/// A small tool declared as the real ones are: a root with a version and
/// subcommands, one taking arguments, options with values, flags, a
/// repeatable option, a fixed list and a command after `--`.
enum Sample {
    static let send = CommandDeclaration(
        "send", abstract: "Send a message.",
        discussion: "Sends it once.",
        options: [
            OptionDeclaration("to", valueName: "name", help: "Who gets it.", isRequired: true),
            OptionDeclaration("via", help: "How it travels.", defaultValue: "post", choices: ["post", "wire"]),
            OptionDeclaration("copy", kind: .repeatedValue, valueName: "name", help: "Who else gets it (repeatable)."),
            .flag("urgent", help: "Mark it urgent."),
            OptionDeclaration("attach", valueName: "file", help: "A file to attach.", completion: .file, group: "Extras"),
        ],
        arguments: [
            ArgumentDeclaration("subject", help: "The subject."),
            ArgumentDeclaration("body", kind: .optional, help: "The text.", completion: .file),
        ])

    static let run = CommandDeclaration(
        "run", abstract: "Run a command.",
        options: [OptionDeclaration("times", valueName: "n", help: "How often.")],
        arguments: [ArgumentDeclaration("command", kind: .afterTerminator, help: "The command to run.")])

    static let root = CommandDeclaration(
        "mailer", abstract: "Sends messages.", version: "1.2.3", subcommands: [send, run])

    /// Parses `words`: the command's name and its values, or the failure.
    static func parse(_ words: [String]) -> Result<CommandLineRequest, CommandLineFailure> {
        Result { () throws(CommandLineFailure) in try CommandLineParser.parse(words, root: root) }
    }

    /// The parsed values of a command line that must run.
    static func values(_ words: [String]) -> ParsedCommandLine? {
        guard case .success(.run(_, let line)) = parse(words) else { return nil }
        return line
    }

    /// The error of a command line that must fail.
    static func error(_ words: [String]) -> CommandLineError? {
        guard case .failure(let failure) = parse(words) else { return nil }
        return failure.error
    }
}
