import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import ArgumentParser

public struct AccessoryControl: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "accessoryctl",
        abstract: "The administrator's tool for accessoryd.",
        discussion: """
            Answers the apps' setup requests (list, approve, deny, or pick interactively), lists, removes \
            and renames the accessories granted to apps, and opens approval windows, through accessoryd's \
            D-Bus interface org.accessoryagent.Admin1 (as root or a member of group \
            \(BusNames.administratorGroup)). Checks app manifests and discovery descriptors before \
            accessoryd reads them (as anyone).
            """,
        version: Version.current,
        subcommands: [
            Requests.self, Approve.self, Deny.self, Pick.self,
            Accessories.self, Remove.self, Rename.self,
            Allow.self, Disallow.self,
            CheckManifests.self, CheckDescriptors.self,
        ])
}

extension AccessoryControl {
    /// Runs the command line and exits. Exit status 0 or 1 only (ArgumentParser
    /// would use 64 for usage errors): scripts test for success, and the
    /// message says what was wrong.
    public static func runAsMain() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            exit(withError: nil)
        } catch {
            if exitCode(for: error).isSuccess { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { StandardError.write(message + "\n") }
            exit(withError: ExitCode.failure)
        }
    }
}
