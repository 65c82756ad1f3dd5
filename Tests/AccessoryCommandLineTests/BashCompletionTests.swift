import AccessoryCommandLine
import Testing

/// The bash completions, made from the same declaration as the parser's rules.
@Suite struct BashCompletionTests {
    let script = BashCompletion.script(for: Sample.root)

    @Test func theScriptRegistersAFunctionForTheCommand() {
        #expect(script.contains("\n_mailer() {\n"))
        #expect(script.hasSuffix("\ncomplete -F _mailer mailer\n"))
        #expect(!script.hasPrefix("#!"), "bash sources it")
    }

    @Test func itOffersEverySubcommandAndOption() {
        #expect(script.contains("            mailer/send|mailer/run) path=\"$path/${COMP_WORDS[i]}\" ;;"))
        #expect(script.contains("            subcommands='send run help'"))
        #expect(script.contains("        mailer)\n            options='--version -h --help'"))
        #expect(script.contains("        mailer/send)\n            options='--to --via --copy --urgent --attach -h --help'"))
        #expect(script.contains("        mailer/run)\n            options='--times -h --help'"))
    }

    @Test func itCompletesValuesByKind() {
        #expect(script.contains("                --via) COMPREPLY=($(compgen -W 'post wire' -- \"$cur\")); return ;;"))
        #expect(script.contains("                --attach) compopt -o filenames; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;"))
        #expect(script.contains("                --to) COMPREPLY=(); return ;;"))
        #expect(script.contains("            arguments=file"), "send's <body> is a file")
    }

    @Test func theParserAnswersTheRequestForIt() {
        guard case .success(.completionScript(let answered)) = Sample.parse(["--generate-completion-script", "bash"]) else {
            Issue.record("not answered")
            return
        }
        #expect(answered == script)
        #expect(Sample.error(["--generate-completion-script", "zsh"])
                == .invalidValue(value: "zsh", target: "--generate-completion-script <shell>", reason: "only bash is supported"))
        #expect(Sample.error(["send", "--generate-completion-script", "bash"]) == .unknownOption("--generate-completion-script"))
    }

    /// The script is valid bash, and completes what the declaration says.
    @Test func bashCompletesWithIt() throws {
        #expect(try complete(["mailer", "se"]) == ["send"])
        #expect(try complete(["mailer", "send", "--v"]) == ["--via"])
        #expect(try complete(["mailer", "send", "--via", "w"]) == ["wire"])
        #expect(try complete(["mailer", "--"]) == ["--version", "--help"])
    }

    /// Runs bash with the script, sets COMP_WORDS to `words` (the last is the
    /// word being completed) and calls the function; the candidates.
    func complete(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _mailer; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        return try Shell.run(["bash", "-c", program]).split(separator: "\n").map(String.init)
    }
}
