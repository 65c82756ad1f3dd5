import AccessoryCommandLine
import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Glibc

/// `accessoryctl`: the administrator's tool.
public enum AccessoryControl {
    static var commands: [any ControlCommand.Type] { [
        Requests.self, Approve.self, Deny.self, Pick.self, PairingQuestions.self, AnswerPairing.self,
        Accessories.self, Remove.self, Rename.self,
        Allow.self, Disallow.self,
        CheckManifests.self, CheckDescriptors.self,
    ] }

    public static let declaration = CommandDeclaration(
        "accessoryctl",
        abstract: "The administrator's tool for accessoryd.",
        discussion: """
            Answers the apps' setup requests (list, approve, deny, or pick interactively) and the \
            questions of the pairings that follow an approval, lists, removes \
            and renames the accessories granted to apps, and opens approval windows, through accessoryd's \
            D-Bus interface org.accessoryagent.Admin1 (as root or a member of group \
            \(BusNames.administratorGroup)). Checks app manifests and discovery descriptors before \
            accessoryd reads them (as anyone).
            """,
        version: Version.current,
        subcommands: commands.map { $0.declaration })

    /// Runs the command line and exits. Exit status 0 or 1 only (not 64 for
    /// usage errors): scripts test for success, and the message says what
    /// was wrong.
    public static func runAsMain() -> Never {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `words` (the arguments after the program's name); the exit status.
    static func run(_ words: [String]) -> Int32 {
        if words.count == 2, words[0] == BashCompletion.wordsOption { return CompletionWords.run(words[1]) }
        switch CommandLineResolution.resolve(words, root: declaration, usageStatus: 1) {
        case .finish(let output, let error, let status):
            StandardOutput.write(output)
            StandardError.write(error)
            return status
        case .run(let path, let line):
            guard let command = commands.first(where: { $0.declaration.name == line.command.name }) else { return 1 }
            do throws(CommandLineError) {
                return try command.init(line).run()
            } catch {
                StandardError.write(CommandLineFailure(error, path: path).message)
                return 1
            }
        }
    }
}
