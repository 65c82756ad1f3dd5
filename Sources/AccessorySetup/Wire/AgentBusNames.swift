import AccessoryCore

/// The agent's names on the bus (the D-Bus API contract), as a client uses them.
enum AgentBusNames {
    static let service = "org.accessoryagent"
    static let root = "/org/accessoryagent"
    static let manager = "org.accessoryagent.Manager1"
    static let session = "org.accessoryagent.Session1"
    static let accessory = "org.accessoryagent.Accessory1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let accessoryPathPrefix = "/org/accessoryagent/accessory/"

    static func path(of id: AccessoryID) -> String { accessoryPathPrefix + "\(id)" }

    /// The id in an accessory's object path; nil for any other path.
    static func accessoryID(path: String) -> AccessoryID? {
        guard path.hasPrefix(accessoryPathPrefix) else { return nil }
        return AccessoryID(path.dropFirst(accessoryPathPrefix.count))
    }
}
