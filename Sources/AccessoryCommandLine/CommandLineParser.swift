/// Reads a command line against a `CommandDeclaration`.
///
/// The rules: the first word that names a subcommand selects it (only
/// before any option or argument of the command itself); `--name VALUE` and
/// `--name=VALUE` give an option its value, and a value that starts with a
/// dash must be given with `=`; an option taking one value may be given only
/// once, a flag any number of times; `-h` and `--help` show the help of the
/// command they follow, `help COMMAND` that of a subcommand; `--version` and
/// `--generate-completion-script bash` belong to the root; `--` ends the
/// options: every word after it is an argument, to the argument declared
/// `afterTerminator` when there is one.
public enum CommandLineParser {
    public static let helpOption = "--help"
    public static let completionOption = "--generate-completion-script"

    public static func parse(_ words: [String], root: CommandDeclaration) throws(CommandLineFailure) -> CommandLineRequest {
        var path = [root]
        var rest = words[...]
        // Subcommands: the leading words that name one.
        while let word = rest.first, !path[path.count - 1].subcommands.isEmpty {
            let command = path[path.count - 1]
            if let subcommand = command.subcommand(named: word) {
                path.append(subcommand)
                rest = rest.dropFirst()
            } else if word == "help" {
                return try helpRequest(for: Array(rest.dropFirst()), path: path)
            } else {
                break
            }
        }
        do {
            return try parseCommand(rest, path: path)
        } catch {
            throw CommandLineFailure(error, path: path)
        }
    }

    /// `help approve`: the help of the subcommand the words name.
    private static func helpRequest(for words: [String], path: [CommandDeclaration]) throws(CommandLineFailure) -> CommandLineRequest {
        var path = path
        for word in words {
            guard let subcommand = path[path.count - 1].subcommand(named: word) else {
                throw CommandLineFailure(.unexpectedArgument(word), path: path)
            }
            path.append(subcommand)
        }
        return .help(path: path)
    }

    private static func parseCommand(_ words: ArraySlice<String>, path: [CommandDeclaration]) throws(CommandLineError) -> CommandLineRequest {
        let command = path[path.count - 1]
        let isRoot = path.count == 1
        var parsed = ParsedCommandLine(command: command)
        var positionals: [String] = []
        var afterTerminator: [String] = []
        var rest = words
        while let word = rest.popFirst() {
            if word == "--" {
                afterTerminator = Array(rest)
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                positionals.append(word)
                continue
            }
            if word == helpOption || word == "-h" { return .help(path: path) }
            guard word.hasPrefix("--") else { throw .unknownOption(word) }
            let (name, attached) = split(word)
            if isRoot, name == "version", let version = command.version {
                guard attached == nil else { throw .flagWithValue(flag: "--version") }
                return .version(version)
            }
            if isRoot, "--" + name == completionOption {
                guard let shell = attached ?? rest.popFirst() else { throw .missingValue(option: completionOption + " <shell>") }
                guard shell == "bash" else {
                    throw .invalidValue(value: shell, target: completionOption + " <shell>", reason: "only bash is supported")
                }
                return .completionScript(BashCompletion.script(for: command))
            }
            guard let option = command.option(named: name) else { throw .unknownOption("--" + name) }
            switch option.kind {
            case .flag:
                guard attached == nil else { throw .flagWithValue(flag: option.spelling) }
                parsed.optionValues[name, default: []].append("")
            case .value, .repeatedValue:
                if option.kind == .value, parsed.optionValues[name] != nil { throw .repeatedOption(option: option.synopsis) }
                let value: String
                if let attached {
                    value = attached
                } else if let next = rest.first, !(next.hasPrefix("-") && next != "-") {
                    value = next
                    rest = rest.dropFirst()
                } else {
                    throw .missingValue(option: option.synopsis)
                }
                parsed.optionValues[name, default: []].append(value)
            }
        }
        try assign(positionals, afterTerminator: afterTerminator, to: &parsed)
        // A command that only groups others does nothing itself: show what it offers.
        if !command.subcommands.isEmpty { return .help(path: path) }
        for option in command.options where option.isRequired && parsed.optionValues[option.name] == nil {
            throw .missingArgument(option.synopsis)
        }
        return .run(path: path, parsed)
    }

    /// `--name=value` → (`name`, `value`); `--name` → (`name`, nil).
    private static func split(_ word: String) -> (name: String, value: String?) {
        let body = word.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    private static func assign(
        _ positionals: [String], afterTerminator: [String], to parsed: inout ParsedCommandLine
    ) throws(CommandLineError) {
        let declared = parsed.command.arguments
        let terminated = declared.first { $0.kind == .afterTerminator }
        var words = positionals[...]
        // Without an argument for them, the words after `--` are ordinary arguments.
        if terminated == nil { words += afterTerminator }
        for argument in declared where argument.kind != .afterTerminator {
            if let word = words.popFirst() {
                parsed.argumentValues[argument.name] = [word]
            } else if argument.kind == .required {
                throw .missingArgument(argument.synopsis)
            }
        }
        if let extra = words.first { throw .unexpectedArgument(extra) }
        if let terminated, !afterTerminator.isEmpty { parsed.argumentValues[terminated.name] = afterTerminator }
    }
}
