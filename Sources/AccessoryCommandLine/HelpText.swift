/// The help a command shows for `--help`, and the usage line that goes with
/// a usage error, made from its declaration.
public enum HelpText {
    static let width = 80
    static let labelColumn = 26

    /// The whole help of the last command in `path`.
    public static func help(_ path: [CommandDeclaration]) -> String {
        let command = path[path.count - 1]
        let isRoot = path.count == 1
        var sections: [String] = []
        sections.append(wrapped("OVERVIEW: " + command.abstract, indent: ""))
        if !command.discussion.isEmpty {
            sections.append(command.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrapped(String($0), indent: "") }.joined(separator: "\n"))
        }
        sections.append(usage(path))
        let arguments = command.arguments.map { ($0.synopsis, $0.help) }
        if !arguments.isEmpty { sections.append(section("ARGUMENTS", arguments)) }
        var groups: [String] = []
        for option in command.options { if let group = option.group, !groups.contains(group) { groups.append(group) } }
        var options = command.options.filter { $0.group == nil }.map(entry)
        if isRoot, command.version != nil { options.append(("--version", "Show the version.")) }
        options.append(("-h, --help", "Show help information."))
        sections.append(section("OPTIONS", options))
        for group in groups {
            sections.append(section(group.uppercased(), command.options.filter { $0.group == group }.map(entry)))
        }
        if !command.subcommands.isEmpty {
            let names = path.map(\.name).joined(separator: " ")
            sections.append(section("SUBCOMMANDS", command.subcommands.map { ($0.name, $0.abstract) })
                + "\n\n  See '\(names) help <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `USAGE: accessoryctl approve <request> <candidate> [--name <name>] …`, wrapped.
    public static func usage(_ path: [CommandDeclaration], label: String = "USAGE: ") -> String {
        let command = path[path.count - 1]
        var words: [String] = []
        if !command.subcommands.isEmpty {
            words.append("<subcommand>")
        } else {
            for argument in command.arguments where argument.kind != .afterTerminator { words.append(argument.synopsis) }
            for option in command.options {
                let repeated = option.kind == .repeatedValue ? " ..." : ""
                words.append(option.isRequired ? option.synopsis : "[\(option.synopsis)\(repeated)]")
            }
            for argument in command.arguments where argument.kind == .afterTerminator { words.append(argument.synopsis) }
        }
        // Broken between the items, never inside one; the lines after the
        // first start under the first item.
        let head = label + path.map(\.name).joined(separator: " ")
        let indent = String(repeating: " ", count: head.count < width / 2 ? head.count + 1 : label.count + 2)
        return wrapped(words, indent: indent, first: head)
    }

    /// The label and the text for an option: its synopsis, and its help
    /// with the values it takes and its default.
    private static func entry(_ option: OptionDeclaration) -> (String, String) {
        var text = option.help
        var notes: [String] = []
        if !option.choices.isEmpty { notes.append("values: " + option.choices.joined(separator: ", ")) }
        if let value = option.defaultValue { notes.append("default: " + value) }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return (option.synopsis, text)
    }

    private static func section(_ title: String, _ entries: [(label: String, text: String)]) -> String {
        let indent = String(repeating: " ", count: labelColumn)
        let lines = entries.map { label, text in
            let head = "  " + label
            if head.count < labelColumn {
                let padded = head + String(repeating: " ", count: labelColumn - head.count)
                return wrapped(text, indent: indent, first: padded)
            }
            return head + "\n" + wrapped(text, indent: indent, first: indent)
        }
        return title + ":\n" + lines.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` columns where
    /// the words allow: the first starts with `first`, the others with `indent`.
    static func wrapped(_ text: String, indent: String, first: String = "") -> String {
        wrapped(text.split(separator: " ").map(String.init), indent: indent, first: first)
    }

    /// `words` joined with spaces into lines of at most `width` columns where
    /// they allow: after `first` on the first line, after `indent` on the others.
    static func wrapped(_ words: [String], indent: String, first: String) -> String {
        var lines: [String] = []
        var line = first
        var wordsOnLine = 0
        for word in words {
            if wordsOnLine > 0, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                wordsOnLine = 0
            }
            if !(line.isEmpty || line.hasSuffix(" ")) { line += " " }
            line += word
            wordsOnLine += 1
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
