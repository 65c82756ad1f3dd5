import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl approve REQUEST CANDIDATE [--name NAME]`.
struct Approve: AdminCommand {
    static let declaration = CommandDeclaration(
        "approve",
        abstract: "Approve one candidate of a pending request for the app that asked.",
        discussion: """
            Prints the new accessory's id and object path. A migration request is approved as a whole \
            with candidate 0, or not at all when another app holds one of its items (the error names \
            them); it prints each item as granted (with its new accessory) or skipped (already the \
            app's). An accessory that asks for pairing is granted only once accessoryd paired it, and \
            the pairing may ask the administrator something: see 'accessoryctl pairing-questions' and \
            'accessoryctl answer-pairing' (or approve with 'accessoryctl pick', which asks).
            """,
        options: [
            OptionDeclaration("name", help: "The accessory's display name, when the app's item allows renaming."),
            BusOptions.busAddress,
        ],
        arguments: [
            ArgumentDeclaration("request", help: "The request's number (see 'accessoryctl requests').",
                                completion: .words(CompletionWords.requests)),
            ArgumentDeclaration("candidate", help: "The candidate's number, 0 for a migration."),
        ])

    var request: UInt32
    var candidate: UInt32
    var name: String?
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        request = try line.requiredArgument("request") { UInt32($0) }
        candidate = try line.requiredArgument("candidate") { UInt32($0) }
        name = line.value("name")
        busAddress = line.value("bus-address")
        if let name, name.allSatisfy(\.isWhitespace) { throw .rule("--name needs a name that is not empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        // Candidate 0 is a migration's: say item by item what it granted.
        if candidate == 0, name == nil {
            StandardOutput.write(try MigrationApproval.approve(request, client))
            return
        }
        let path = try client.approve(request: request, candidate: candidate, name: name ?? "")
        StandardOutput.write(AdminFormat.approved(path))
    }
}

/// `accessoryctl deny REQUEST`.
struct Deny: AdminCommand {
    static let declaration = CommandDeclaration(
        "deny",
        abstract: "Deny a pending request: the app is told the user cancelled.",
        options: [BusOptions.busAddress],
        arguments: [ArgumentDeclaration("request", help: "The request's number (see 'accessoryctl requests').",
                                        completion: .words(CompletionWords.requests))])

    var request: UInt32
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        request = try line.requiredArgument("request") { UInt32($0) }
        busAddress = line.value("bus-address")
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.deny(request: request)
        StandardOutput.write("denied: request \(request)\n")
    }
}
