/// What a command line asks for, once parsed.
public enum CommandLineRequest: Sendable {
    /// Run the command named last in `path` (`path[0]` is the root) with these values.
    case run(path: [CommandDeclaration], ParsedCommandLine)
    /// `--help`, `-h` or `help [command]`: show the help of the last command in `path`.
    case help(path: [CommandDeclaration])
    /// `--version`.
    case version(String)
    /// `--generate-completion-script bash`: print this script.
    case completionScript(String)
}
