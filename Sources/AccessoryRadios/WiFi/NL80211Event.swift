import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import CNetlink

/// What nl80211 announces on the `scan` and `config` multicast groups, as far
/// as Wi-Fi discovery cares.
public enum NL80211Event: Hashable, Sendable {
    /// Someone (us, wpa_supplicant, iw) started a scan on the interface.
    case scanStarted(interfaceIndex: UInt32)
    /// A scan finished: the kernel's BSS cache for the interface is fresh.
    case scanResultsReady(interfaceIndex: UInt32)
    /// A scan stopped early (the interface went down, a connection needed the radio).
    case scanAborted(interfaceIndex: UInt32)
    case interfaceAdded(WiFiInterfaceInfo)
    case interfaceRemoved(interfaceIndex: UInt32)

    /// Decodes one message from the event socket. Nil for messages of other
    /// families or commands discovery does not use; throws for malformed ones.
    public static func decode(_ message: NetlinkMessage, familyID: UInt16) throws(NetlinkDecodingError) -> NL80211Event? {
        guard message.header.type == familyID else { return nil }
        let generic = try GenericNetlinkMessage(message)
        let attributes = generic.attributes
        guard let index = try attributes[Attribute.interfaceIndex]?.uint32() else { return nil }
        switch UInt32(generic.command) {
        case NL80211_CMD_TRIGGER_SCAN.rawValue: return .scanStarted(interfaceIndex: index)
        case NL80211_CMD_NEW_SCAN_RESULTS.rawValue: return .scanResultsReady(interfaceIndex: index)
        case NL80211_CMD_SCAN_ABORTED.rawValue: return .scanAborted(interfaceIndex: index)
        case NL80211_CMD_DEL_INTERFACE.rawValue: return .interfaceRemoved(interfaceIndex: index)
        case NL80211_CMD_NEW_INTERFACE.rawValue:
            guard let nameAttribute = attributes[Attribute.interfaceName] else { return nil }
            // IFNAME is NUL-terminated; names are ASCII in practice, decoded leniently.
            let name = String(decoding: nameAttribute.payload.prefix { $0 != 0 }, as: UTF8.self)
            return .interfaceAdded(WiFiInterfaceInfo(
                name: name, index: index,
                phy: try attributes[Attribute.wiphy]?.uint32() ?? 0,
                address: attributes[Attribute.macAddress].flatMap { HardwareAddress(octets: $0.payload) },
                type: try attributes[Attribute.interfaceType]?.uint32()))
        default:
            return nil
        }
    }

    /// Top-level nl80211 attributes read here (enum nl80211_attrs).
    enum Attribute {
        static let wiphy = UInt16(NL80211_ATTR_WIPHY.rawValue)
        static let interfaceIndex = UInt16(NL80211_ATTR_IFINDEX.rawValue)
        static let interfaceName = UInt16(NL80211_ATTR_IFNAME.rawValue)
        static let interfaceType = UInt16(NL80211_ATTR_IFTYPE.rawValue)
        static let macAddress = UInt16(NL80211_ATTR_MAC.rawValue)
    }
}
