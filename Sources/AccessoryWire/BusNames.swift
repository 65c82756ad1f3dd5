import AccessoryCore

/// accessoryd's names on the bus (the D-Bus API's contract), one definition
/// for the daemon and its clients. Interfaces carry a version, as BlueZ's do,
/// so a later incompatible one can live beside them.
public enum BusNames {
    public static let service = "org.accessoryagent"
    public static let root = "/org/accessoryagent"
    public static let sessions = "/org/accessoryagent/session"
    public static let accessories = "/org/accessoryagent/accessory"
    public static let manager = "org.accessoryagent.Manager1"
    public static let session = "org.accessoryagent.Session1"
    public static let accessory = "org.accessoryagent.Accessory1"
    public static let admin = "org.accessoryagent.Admin1"
    public static let pickerAgent = "org.accessoryagent.PickerAgent1"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let peer = "org.freedesktop.DBus.Peer"

    /// The system group whose members may use Admin1 besides root. Part of
    /// the contract because the bus policy (packaging/dbus) names it too.
    public static let administratorGroup = "accessory-admin"

    /// `/org/accessoryagent/accessory/00000000000000a1`.
    public static func path(of accessory: AccessoryID) -> String { "\(accessories)/\(accessory)" }

    /// The accessory an object path names, if it is one.
    public static func accessory(at path: String) -> AccessoryID? {
        guard path.hasPrefix(accessories + "/") else { return nil }
        return AccessoryID(path.dropFirst(accessories.count + 1))
    }

    /// `/org/accessoryagent/session/3`.
    public static func path(ofSession number: UInt64) -> String { "\(sessions)/\(number)" }

    /// The session number an object path names, if it is one.
    public static func session(at path: String) -> UInt64? {
        guard path.hasPrefix(sessions + "/") else { return nil }
        return UInt64(path.dropFirst(sessions.count + 1))
    }
}
