/// The bash completion script for a command, made from its declaration:
/// subcommand names, option names, the values of options with a fixed list,
/// file or directory names where an option or argument takes a path, and
/// words the program lists itself (`.words`), for the argument at their place.
public enum BashCompletion {
    /// The hidden root option the script calls for `.words` completions:
    /// `ROOT --completion-words KIND`; not in help, not parsed as a command.
    public static let wordsOption = "--completion-words"

    public static func script(for root: CommandDeclaration) -> String {
        let function = "_" + String(root.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        var paths: [(key: String, command: CommandDeclaration)] = []
        collect(root, key: root.name, into: &paths)
        let subcommandKeys = paths.dropFirst().map(\.key)
        var lines = [
            "# bash completion for \(root.name), made from its own declarations",
            "# (\(root.name) \(CommandLineParser.completionOption) bash)",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local path=\(root.name) i=1",
            "    # The subcommands typed so far.",
            "    while (( i < COMP_CWORD )); do",
            "        case \"$path/${COMP_WORDS[i]}\" in",
        ]
        if !subcommandKeys.isEmpty {
            lines.append("            \(subcommandKeys.joined(separator: "|"))) path=\"$path/${COMP_WORDS[i]}\" ;;")
        }
        lines += [
            "            *) break ;;",
            "        esac",
            "        (( i++ ))",
            "    done",
            "    # After --: a command to run, then its arguments.",
            "    local j",
            "    for (( j = i; j < COMP_CWORD; j++ )); do",
            "        if [[ ${COMP_WORDS[j]} == -- ]]; then",
            "            if (( j + 1 == COMP_CWORD )); then COMPREPLY=($(compgen -c -- \"$cur\")); else compopt -o filenames; COMPREPLY=($(compgen -f -- \"$cur\")); fi",
            "            return",
            "        fi",
            "    done",
            "    local options='' subcommands='' arguments=none argument=0 valued=''",
            "    case \"$path\" in",
        ]
        for (key, command) in paths {
            lines.append("        \(key))")
            lines.append("            options='\(optionWords(command, isRoot: key == root.name))'")
            if !command.subcommands.isEmpty {
                lines.append("            subcommands='\((command.subcommands.map(\.name) + ["help"]).joined(separator: " "))'")
            }
            let positional = command.arguments.filter { $0.kind != .afterTerminator }
            if let index = positional.firstIndex(where: { $0.completion != .none }) {
                lines.append("            arguments=\(kind(positional[index].completion)) argument=\(index)")
                if case .words = positional[index].completion {
                    let valued = command.options.filter { $0.kind != .flag }.map(\.spelling)
                    lines.append("            valued=' \(valued.joined(separator: " ")) '")
                }
            }
            let valueCases = command.options.filter { $0.kind != .flag }.map { option in
                "                \(option.spelling)) \(valueCompletion(option)) return ;;"
            }
            if !valueCases.isEmpty {
                lines.append("            case \"$prev\" in")
                lines += valueCases
                lines.append("            esac")
            }
            lines.append("            ;;")
        }
        lines += [
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    elif [[ -n $subcommands ]]; then",
            "        COMPREPLY=($(compgen -W \"$subcommands\" -- \"$cur\"))",
            "    elif [[ $arguments == file ]]; then",
            "        compopt -o filenames; COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    elif [[ $arguments == directory ]]; then",
            "        compopt -o filenames; COMPREPLY=($(compgen -d -- \"$cur\"))",
            "    elif [[ $arguments == words:* ]]; then",
            "        # Only for the argument at its place: count the ones typed before.",
            "        local k typed=0",
            "        for (( k = i; k < COMP_CWORD; k++ )); do",
            "            [[ ${COMP_WORDS[k]} == -* || $valued == *\" ${COMP_WORDS[k-1]} \"* ]] || (( typed++ ))",
            "        done",
            "        if (( typed == argument )); then",
            "            COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \(wordsOption) \"${arguments#words:}\" 2>/dev/null)\" -- \"$cur\"))",
            "        fi",
            "    fi",
            "}",
            "complete -F \(function) \(root.name)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func collect(_ command: CommandDeclaration, key: String, into paths: inout [(key: String, command: CommandDeclaration)]) {
        paths.append((key, command))
        for subcommand in command.subcommands { collect(subcommand, key: key + "/" + subcommand.name, into: &paths) }
    }

    private static func optionWords(_ command: CommandDeclaration, isRoot: Bool) -> String {
        var words = command.options.map(\.spelling)
        if isRoot, command.version != nil { words.append("--version") }
        return (words + ["-h", "--help"]).joined(separator: " ")
    }

    private static func kind(_ completion: OptionDeclaration.Completion) -> String {
        switch completion {
        case .none: "none"
        case .file: "file"
        case .directory: "directory"
        case .words(let kind): "words:" + kind
        }
    }

    /// What follows an option that takes a value: its choices, a path, or nothing to offer.
    private static func valueCompletion(_ option: OptionDeclaration) -> String {
        if !option.choices.isEmpty { return "COMPREPLY=($(compgen -W '\(option.choices.joined(separator: " "))' -- \"$cur\"));" }
        switch option.completion {
        case .none: return "COMPREPLY=();"
        case .file: return "compopt -o filenames; COMPREPLY=($(compgen -f -- \"$cur\"));"
        case .directory: return "compopt -o filenames; COMPREPLY=($(compgen -d -- \"$cur\"));"
        case .words(let kind):
            return "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \(wordsOption) \(kind) 2>/dev/null)\" -- \"$cur\"));"
        }
    }
}
