import AccessoryCore
import AccessoryPlatform
import ArgumentParser

/// `accessoryctl accessories`.
struct Accessories: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessories",
        abstract: "List every accessory granted to an app: id, app, name, state, address or SSID.")

    @OptionGroup var bus: BusOptions

    func run(_ client: AdminClient) throws(AdminError) {
        StandardOutput.write(AdminFormat.accessories(try client.listAccessories()))
    }
}

/// `accessoryctl remove ID`.
struct Remove: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Revoke an accessory: its app loses it and is told so.")

    @Argument(help: ArgumentHelp("The accessory's id (or object path), see 'accessoryctl accessories'.", valueName: "id"))
    var id: String

    @OptionGroup var bus: BusOptions

    func validate() throws {
        if AccessoryPath.id(id).isEmpty { throw ValidationError("the accessory id is empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.removeAccessory(id: AccessoryPath.id(id))
        StandardOutput.write("removed: accessory \(AccessoryPath.id(id))\n")
    }
}

/// `accessoryctl rename ID NAME`.
struct Rename: AdminCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give an accessory a new display name; its app is told so.")

    @Argument(help: ArgumentHelp("The accessory's id (or object path), see 'accessoryctl accessories'.", valueName: "id"))
    var id: String

    @Argument(help: ArgumentHelp("The new display name.", valueName: "name"))
    var name: String

    @OptionGroup var bus: BusOptions

    func validate() throws {
        if AccessoryPath.id(id).isEmpty { throw ValidationError("the accessory id is empty") }
        if name.allSatisfy(\.isWhitespace) { throw ValidationError("the new name is empty") }
    }

    func run(_ client: AdminClient) throws(AdminError) {
        try client.renameAccessory(id: AccessoryPath.id(id), name: name)
        StandardOutput.write("renamed: accessory \(AccessoryPath.id(id)) is now \(DisplayText.quoted(name))\n")
    }
}
