/// How a hotspot join reaches the radio, chosen per join: through
/// NetworkManager when it manages the join interface (it would undo anything
/// done behind its back), else through the interface's wpa_supplicant.
public enum HotspotJoinRoute: String, Hashable, Sendable, CustomStringConvertible {
    case networkManager = "networkmanager"
    case wpaSupplicant = "wpa_supplicant"

    public static func choose(networkManagerManages: Bool) -> HotspotJoinRoute {
        networkManagerManages ? .networkManager : .wpaSupplicant
    }

    public var description: String { rawValue }
}
