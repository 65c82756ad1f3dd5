import AccessoryPlatform
import ArgumentParser

/// `accessoryctl approve REQUEST CANDIDATE [--name NAME]`.
struct Approve: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve one candidate of a pending request for the app that asked.",
        discussion: """
            Prints the new accessory's id and object path. A migration request is approved as a whole \
            with candidate 0.
            """)

    @Argument(help: ArgumentHelp("The request's number (see 'accessoryctl requests').", valueName: "request"))
    var request: UInt32

    @Argument(help: ArgumentHelp("The candidate's number, 0 for a migration.", valueName: "candidate"))
    var candidate: UInt32

    @Option(help: ArgumentHelp(
        "The accessory's display name, when the app's item allows renaming.", valueName: "name"))
    var name: String?

    @OptionGroup var bus: BusOptions

    func validate() throws {
        if let name, name.allSatisfy(\.isWhitespace) { throw ValidationError("--name needs a name that is not empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        let path = try client.approve(request: request, candidate: candidate, name: name ?? "")
        StandardOutput.write(AdminFormat.approved(path))
    }
}

/// `accessoryctl deny REQUEST`.
struct Deny: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny",
        abstract: "Deny a pending request: the app is told the user cancelled.")

    @Argument(help: ArgumentHelp("The request's number (see 'accessoryctl requests').", valueName: "request"))
    var request: UInt32

    @OptionGroup var bus: BusOptions

    func run(_ client: AdminClient) throws(AdminError) {
        try client.deny(request: request)
        StandardOutput.write("denied: request \(request)\n")
    }
}
