import AccessoryDaemon
import AccessorySystem
import ArgumentParser

struct AccessoryControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessoryctl",
        abstract: "The administrator's tool for accessoryd.",
        discussion: """
            Answers the apps' setup requests (list, approve, deny, or pick interactively), lists, removes \
            and renames the accessories granted to apps, and opens approval windows, through accessoryd's \
            D-Bus interface org.accessoryagent.Admin1 (as root or a member of group \
            \(AdministratorGroup.defaultName)). Checks app manifests and discovery descriptors before \
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

// Exit status 0 or 1 only (ArgumentParser would use 64 for usage errors):
// scripts test for success, and the message says what was wrong.
do {
    var command = try AccessoryControl.parseAsRoot()
    try command.run()
} catch {
    if AccessoryControl.exitCode(for: error).isSuccess { AccessoryControl.exit(withError: error) }
    let message = AccessoryControl.fullMessage(for: error)
    if !message.isEmpty { StandardError.write(message + "\n") }
    AccessoryControl.exit(withError: ExitCode.failure)
}
