import AccessoryPlatform
import AccessoryWire

/// Who may use `org.accessoryagent.Admin1`: root, and the members of one
/// system group, so a web UI or a panel's picker agent need not run as root.
/// The name is fixed because the bus policy (packaging/dbus) names it too and
/// cannot read accessoryd's configuration; one name in two places that must
/// agree would be a trap.
public struct AdministratorGroup: Hashable, Sendable, CustomStringConvertible {
    /// The group the package creates (`addgroup --system`).
    public static let defaultName = BusNames.administratorGroup

    public let name: String
    /// The group's gid when it was last looked up; nil when it does not exist
    /// (or could not be looked up), and then Admin1 is root's alone.
    public let gid: UInt32?

    public init(name: String, gid: UInt32?) {
        self.name = name
        self.gid = gid
    }

    /// Whether the caller may use Admin1: root, or a member of the group
    /// (`credentials.groups`, as the bus daemon recorded them).
    public func admits(_ credentials: CallerCredentials) -> Bool {
        if credentials.uid == 0 { return true }
        guard let gid else { return false }
        return credentials.groups.contains(gid)
    }

    /// What a refused caller is told.
    public var refusal: String { "Admin1 is for root and members of group \(name)" }

    public var description: String { gid.map { "\(name) (gid \($0))" } ?? "\(name) (missing)" }
}
