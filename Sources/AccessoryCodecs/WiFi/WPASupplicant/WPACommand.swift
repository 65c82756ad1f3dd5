/// A request on wpa_supplicant's control interface. Every value it carries is
/// valid by construction (ids are numbers, SSIDs go as hex, secrets are checked
/// types), so the encoded command never holds a control character.
/// `description` is safe for logs: a secret shows as `<redacted>`.
public enum WPACommand: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case ping
    case attach
    case detach
    case status
    case listNetworks
    case addNetwork
    case removeNetwork(WPANetworkID)
    case selectNetwork(WPANetworkID)
    case enableNetwork(WPANetworkID)
    case disableNetwork(WPANetworkID)
    case setNetwork(WPANetworkID, WPANetworkSetting)
    /// Reads back a variable; never a secret (wpa_supplicant refuses those anyway).
    case getNetwork(WPANetworkID, WPANetworkVariable)
    case reassociate
    case disconnect
    case scan

    /// The datagram to send.
    public var bytes: [UInt8] {
        switch self {
        case .setNetwork(let id, let setting):
            Array("SET_NETWORK \(id) \(setting.variable) ".utf8) + setting.controlValue
        default:
            Array(description.utf8)
        }
    }

    public var description: String {
        switch self {
        case .ping: "PING"
        case .attach: "ATTACH"
        case .detach: "DETACH"
        case .status: "STATUS"
        case .listNetworks: "LIST_NETWORKS"
        case .addNetwork: "ADD_NETWORK"
        case .removeNetwork(let id): "REMOVE_NETWORK \(id)"
        case .selectNetwork(let id): "SELECT_NETWORK \(id)"
        case .enableNetwork(let id): "ENABLE_NETWORK \(id)"
        case .disableNetwork(let id): "DISABLE_NETWORK \(id)"
        case .setNetwork(let id, let setting): "SET_NETWORK \(id) \(setting)"
        case .getNetwork(let id, let variable): "GET_NETWORK \(id) \(variable.rawValue)"
        case .reassociate: "REASSOCIATE"
        case .disconnect: "DISCONNECT"
        case .scan: "SCAN"
        }
    }

    public var debugDescription: String { description }
}

/// The network variables the agent reads back with `GET_NETWORK`.
public enum WPANetworkVariable: String, Hashable, Sendable {
    case ssid
    case keyManagement = "key_mgmt"
    case scanSSID = "scan_ssid"
    case disabled
}
