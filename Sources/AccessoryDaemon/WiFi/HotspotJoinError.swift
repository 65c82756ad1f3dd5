import AccessoryPlatform
import AccessoryRadios

/// Why a join could not even start. Nothing was changed on the interface.
public enum HotspotJoinError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a plain interface name (letters, digits, `.`, `-`, `_`, at most 15).
    case invalidInterfaceName(String)
    /// NetworkManager manages it, and cannot be reached to join through it.
    case networkManager(interface: String, NetworkManagerError)
    /// A join on this interface is already in progress or active.
    case alreadyJoined(interface: String)
    /// wpa_supplicant could not be reached or refused to start the join.
    case wpaSupplicant(interface: String, WPAControlError)
    /// The crash-recovery record could not be written, so the join was not started.
    case recordNotWritten(SystemError)
    /// Anything else that failed at the system level (the interface does not exist, …).
    case system(SystemError)

    public var description: String {
        switch self {
        case .invalidInterfaceName(let name): "'\(name)' is not an interface name"
        case .networkManager(let interface, let error): "\(interface): \(error)"
        case .alreadyJoined(let interface): "\(interface) is already joining or joined to a hotspot"
        case .wpaSupplicant(let interface, let error): "\(interface): \(error)"
        case .recordNotWritten(let error): "cannot write the join record: \(error)"
        case .system(let error): "\(error)"
        }
    }
}
