import AccessoryCore
import AccessoryPlatform
import AccessoryCommandLine

/// `accessoryctl accessories`.
struct Accessories: AdminCommand {
    static let declaration = CommandDeclaration(
        "accessories",
        abstract: "List every accessory granted to an app: id, app, name, state, address or SSID.",
        options: [BusOptions.busAddress])

    var busAddress: String?

    init(_ line: ParsedCommandLine) {
        busAddress = line.value("bus-address")
    }

    func run(_ client: AdminClient) throws(AdminError) {
        StandardOutput.write(AdminFormat.accessories(try client.listAccessories()))
    }
}

/// `accessoryctl remove ID`.
struct Remove: AdminCommand {
    static let declaration = CommandDeclaration(
        "remove",
        abstract: "Revoke an accessory: its app loses it and is told so.",
        options: [BusOptions.busAddress],
        arguments: [ArgumentDeclaration("id", help: "The accessory's id (or object path), see 'accessoryctl accessories'.",
                                completion: .words(CompletionWords.accessories))])

    var id: String
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        id = try line.requiredArgument("id")
        busAddress = line.value("bus-address")
        if AccessoryPath.id(id).isEmpty { throw .rule("the accessory id is empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.removeAccessory(id: AccessoryPath.id(id))
        StandardOutput.write("removed: accessory \(AccessoryPath.id(id))\n")
    }
}

/// `accessoryctl rename ID NAME`.
struct Rename: AdminCommand {
    static let declaration = CommandDeclaration(
        "rename",
        abstract: "Give an accessory a new display name; its app is told so.",
        options: [BusOptions.busAddress],
        arguments: [
            ArgumentDeclaration("id", help: "The accessory's id (or object path), see 'accessoryctl accessories'.",
                                completion: .words(CompletionWords.accessories)),
            ArgumentDeclaration("name", help: "The new display name."),
        ])

    var id: String
    var name: String
    var busAddress: String?

    init(_ line: ParsedCommandLine) throws(CommandLineError) {
        id = try line.requiredArgument("id")
        name = try line.requiredArgument("name")
        busAddress = line.value("bus-address")
        if AccessoryPath.id(id).isEmpty { throw .rule("the accessory id is empty") }
        if name.allSatisfy(\.isWhitespace) { throw .rule("the new name is empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.renameAccessory(id: AccessoryPath.id(id), name: name)
        StandardOutput.write("renamed: accessory \(AccessoryPath.id(id)) is now \(DisplayText.quoted(name))\n")
    }
}
