/// A command's whole command line, declared as values: its options, its
/// positional arguments and its subcommands. The parser, the help text and
/// the bash completions are all made from this one declaration.
public struct CommandDeclaration: Sendable {
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// More, shown under the abstract in the command's help.
    public var discussion: String
    /// Answered by `--version` (the root command only).
    public var version: String?
    public var options: [OptionDeclaration]
    public var arguments: [ArgumentDeclaration]
    public var subcommands: [CommandDeclaration]

    public init(
        _ name: String, abstract: String, discussion: String = "", version: String? = nil,
        options: [OptionDeclaration] = [], arguments: [ArgumentDeclaration] = [], subcommands: [CommandDeclaration] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
    }

    public func option(named name: String) -> OptionDeclaration? { options.first { $0.name == name } }

    public func subcommand(named name: String) -> CommandDeclaration? { subcommands.first { $0.name == name } }
}
