/// A command line either settled by the parser itself (help, version,
/// completions, a usage error: text to print and an exit status) or a
/// command to run. What prints and exits is the caller's.
public enum CommandLineResolution: Sendable {
    case run(path: [CommandDeclaration], ParsedCommandLine)
    case finish(output: String, error: String, status: Int32)

    /// `usageStatus` is the exit status of a usage error.
    public static func resolve(_ words: [String], root: CommandDeclaration, usageStatus: Int32) -> CommandLineResolution {
        do {
            switch try CommandLineParser.parse(words, root: root) {
            case .run(let path, let parsed): return .run(path: path, parsed)
            case .help(let path): return .finish(output: HelpText.help(path), error: "", status: 0)
            case .version(let version): return .finish(output: version + "\n", error: "", status: 0)
            case .completionScript(let script): return .finish(output: script, error: "", status: 0)
            }
        } catch {
            return .finish(output: "", error: error.message, status: usageStatus)
        }
    }
}
