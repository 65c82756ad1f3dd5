import AccessoryCommandLine

/// One of accessoryctl's subcommands: its declaration, how it reads its
/// parsed command line, and what it does.
protocol ControlCommand {
    static var declaration: CommandDeclaration { get }

    /// The command's values; a usage error when they break its rules.
    init(_ line: ParsedCommandLine) throws(CommandLineError)

    /// Does the work; its exit status. A `CommandLineError` is reported as a usage error.
    func run() throws(CommandLineError) -> Int32
}
