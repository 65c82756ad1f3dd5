import AccessoryPlatform

/// Why a request to NetworkManager did not get the answer it needed. Never
/// holds a secret: the profile's settings are not part of any case.
public enum NetworkManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// NetworkManager is not on the bus (not running, or restarting).
    case notRunning
    /// No reply within the request's deadline.
    case noReply(method: String)
    /// polkit said no: `actions` are the NetworkManager actions the method needs.
    case permissionDenied(method: String, actions: [String])
    /// Any other error reply.
    case refused(method: String, BusError)
    /// Asked for something that does not exist (no such device, profile or object).
    case notFound(method: String)
    /// A reply that could not be read.
    case malformedReply(method: String)
    case system(String)

    public var description: String {
        switch self {
        case .notRunning: "NetworkManager is not running"
        case .noReply(let method): "NetworkManager did not answer \(method)"
        case .permissionDenied(let method, let actions):
            "NetworkManager refused \(method): polkit does not grant this user the permission "
                + actions.joined(separator: " and ")
                + " (granted to user accessoryd by /usr/share/polkit-1/rules.d/50-accessoryd-networkmanager.rules)"
        case .refused(let method, let error): "NetworkManager refused \(method): \(error)"
        case .notFound(let method): "\(method): no such object in NetworkManager"
        case .malformedReply(let method): "NetworkManager's reply to \(method) could not be read"
        case .system(let text): "NetworkManager: \(text)"
        }
    }

    /// The polkit actions NetworkManager checks for each method accessoryd
    /// calls (nm-manager.c, nm-settings-connection.c): activating or
    /// deactivating is `network-control`; adding or deleting a profile owned by
    /// the system (no `connection.permissions`) is `settings.modify.system`.
    public static func actions(of method: String) -> [String] {
        switch method {
        case "AddAndActivateConnection2":
            ["org.freedesktop.NetworkManager.network-control", "org.freedesktop.NetworkManager.settings.modify.system"]
        case "Delete": ["org.freedesktop.NetworkManager.settings.modify.system"]
        default: ["org.freedesktop.NetworkManager.network-control"]
        }
    }

    static func from(_ error: BusError, method: String) -> NetworkManagerError {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.Disconnected":
            .notRunning
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            .noReply(method: method)
        case "org.freedesktop.NetworkManager.PermissionDenied", "org.freedesktop.NetworkManager.Settings.PermissionDenied",
            "org.freedesktop.DBus.Error.AccessDenied":
            .permissionDenied(method: method, actions: actions(of: method))
        case "org.freedesktop.NetworkManager.UnknownDevice", "org.freedesktop.NetworkManager.UnknownConnection",
            "org.freedesktop.NetworkManager.Settings.InvalidConnection", "org.freedesktop.DBus.Error.UnknownObject",
            "org.freedesktop.DBus.Error.UnknownMethod":
            .notFound(method: method)
        default: .refused(method: method, error)
        }
    }
}
