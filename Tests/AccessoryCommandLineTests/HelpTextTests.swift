import AccessoryCommandLine
import Testing

/// What `--help` shows, made from the declaration.
@Suite struct HelpTextTests {
    @Test func aCommandsHelpListsItsArgumentsOptionsAndGroups() {
        #expect(HelpText.help([Sample.root, Sample.send]) == """
            OVERVIEW: Send a message.

            Sends it once.

            USAGE: mailer send <subject> [<body>] --to <name> [--via <via>]
                               [--copy <name> ...] [--urgent] [--attach <file>]

            ARGUMENTS:
              <subject>               The subject.
              [<body>]                The text.

            OPTIONS:
              --to <name>             Who gets it.
              --via <via>             How it travels. (values: post, wire; default: post)
              --copy <name>           Who else gets it (repeatable).
              --urgent                Mark it urgent.
              -h, --help              Show help information.

            EXTRAS:
              --attach <file>         A file to attach.

            """)
    }

    @Test func theRootsHelpListsItsSubcommandsAndVersion() {
        let help = HelpText.help([Sample.root])
        #expect(help.hasPrefix("OVERVIEW: Sends messages.\n\nUSAGE: mailer <subcommand>\n"))
        #expect(help.contains("\n  --version               Show the version.\n"))
        #expect(help.contains("SUBCOMMANDS:\n  send                    Send a message.\n  run                     Run a command.\n"))
        #expect(help.contains("See 'mailer help <subcommand>' for detailed help."))
    }

    @Test func longTextIsWrappedUnderItsColumn() {
        let command = CommandDeclaration(
            "tool", abstract: "A tool.",
            options: [OptionDeclaration(
                "a-rather-long-option-name", valueName: "value",
                help: "This help is long enough that it has to be wrapped onto a second line under the column.")])
        let help = HelpText.help([command])
        #expect(help.contains("""
              --a-rather-long-option-name <value>
                                      This help is long enough that it has to be wrapped
                                      onto a second line under the column.
            """))
        for line in help.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }
}
