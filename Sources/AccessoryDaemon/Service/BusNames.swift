/// accessoryd's names on the bus. Interfaces carry a version, as BlueZ's do,
/// so a later incompatible one can live beside them.
public enum BusNames {
    public static let service = "org.accessoryagent"
    public static let root = "/org/accessoryagent"
    public static let sessions = "/org/accessoryagent/session"
    public static let manager = "org.accessoryagent.Manager1"
    public static let session = "org.accessoryagent.Session1"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"

    /// AccessorySetupKit's error codes on the wire: `org.accessoryagent.Error.invalidRequest`.
    public static func error(_ code: String) -> String { "org.accessoryagent.Error.\(code)" }
}
