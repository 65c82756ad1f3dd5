import AccessoryDaemon
import ArgumentParser

struct AccessoryControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessoryctl",
        abstract: "The administrator's tool for accessoryd.",
        discussion: """
            Checks app manifests and discovery descriptors before accessoryd reads them. \
            Approving, denying and removing accessories come with accessoryd's D-Bus API.
            """,
        version: Version.current,
        subcommands: [CheckManifests.self, CheckDescriptors.self])
}

AccessoryControl.main()
