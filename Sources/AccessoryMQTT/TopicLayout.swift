import AccessoryCore

/// Where everything is published (documented in accessory-mqtt(8); stable):
///
///     PREFIX/GATEWAY/status                          online | offline (birth and last will, retained)
///     PREFIX/GATEWAY/accessory/ID/state              the accessory: name, authorization state (retained)
///     PREFIX/GATEWAY/accessory/ID/presence           home | not_home, gateway, RSSI (retained)
///     PREFIX/GATEWAY/accessory/ID/advertisement      the latest advertisement's fields (retained)
///     DISCOVERY/COMPONENT/NODE/OBJECT/config         Home Assistant discovery (retained)
///
/// GATEWAY is in every topic and in every discovery node id, so gateways that
/// hear the same accessory never write each other's topics.
public struct TopicLayout: Hashable, Sendable {
    public var prefix: String
    public var gateway: String
    public var discoveryPrefix: String

    public init(prefix: String, gateway: String, discoveryPrefix: String = "homeassistant") {
        self.prefix = prefix
        self.gateway = gateway
        self.discoveryPrefix = discoveryPrefix
    }

    public init(_ configuration: BridgeConfiguration) {
        self.init(prefix: configuration.topicPrefix, gateway: configuration.gateway, discoveryPrefix: configuration.discoveryPrefix)
    }

    public var base: String { "\(prefix)/\(gateway)" }
    public var status: String { "\(base)/status" }
    public func accessory(_ id: AccessoryID) -> String { "\(base)/accessory/\(id)" }
    public func state(_ id: AccessoryID) -> String { accessory(id) + "/state" }
    public func presence(_ id: AccessoryID) -> String { accessory(id) + "/presence" }
    public func advertisement(_ id: AccessoryID) -> String { accessory(id) + "/advertisement" }

    /// Home Assistant announces itself here (`online`) after it starts.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// Discovery's node id: the gateway's, so two gateways' objects never meet.
    public var nodeID: String { "accessory-mqtt_\(gateway)" }
    public func discovery(_ component: String, object: String) -> String {
        "\(discoveryPrefix)/\(component)/\(nodeID)/\(object)/config"
    }

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2D
        }
    }

    static func isValidPrefix(_ prefix: String) -> Bool {
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        return !prefix.isEmpty && prefix.utf8.count <= 128 && !prefix.hasPrefix("$")
            && levels.allSatisfy { !$0.isEmpty && !$0.contains("+") && !$0.contains("#") && $0.allSatisfy { !$0.isWhitespace && $0.isASCII } }
    }
}
