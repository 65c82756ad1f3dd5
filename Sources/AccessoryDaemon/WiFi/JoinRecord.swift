import AccessoryCodecs
import AccessoryCore
import AccessoryDecisions

/// What a join changed, written before it changes anything that matters, so
/// that a start after a crash (SIGKILL, power cut) can put the interface back:
/// the temporary network to remove (and its SSID, to be sure it is ours), the
/// networks to enable again and the one to select, and the DHCP client's pid
/// file. One `key=value` per line; no secret is ever in it.
public struct JoinRecord: Hashable, Sendable {
    public var interface: String
    public var controlDirectory: String
    public var temporaryNetwork: WPANetworkID
    public var temporarySSID: SSID
    public var previous: NetworkSnapshot
    public var dhcpPIDFile: String

    public init(
        interface: String, controlDirectory: String, temporaryNetwork: WPANetworkID, temporarySSID: SSID,
        previous: NetworkSnapshot, dhcpPIDFile: String
    ) {
        self.interface = interface
        self.controlDirectory = controlDirectory
        self.temporaryNetwork = temporaryNetwork
        self.temporarySSID = temporarySSID
        self.previous = previous
        self.dhcpPIDFile = dhcpPIDFile
    }

    public static func fileName(interface: String) -> String { "hotspot-join-\(interface).record" }

    public var encoded: [UInt8] {
        let lines = [
            "interface=\(interface)",
            "control_directory=\(controlDirectory)",
            "temporary_network=\(temporaryNetwork)",
            "temporary_ssid=\(hexString(temporarySSID.bytes))",
            "previous_current=\(previous.current.map(String.init(describing:)) ?? "")",
            "previous_enabled=\(previous.enabled.map(String.init(describing:)).joined(separator: " "))",
            "dhcp_pid_file=\(dhcpPIDFile)",
        ]
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    public enum DecodingError: Error, Hashable, Sendable {
        case missing(String)
        case malformed(String)
    }

    public init(decoding bytes: [UInt8]) throws(DecodingError) {
        var values: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { throw .malformed("line without '='") }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        func value(_ key: String) throws(DecodingError) -> String {
            guard let value = values[key] else { throw .missing(key) }
            return value
        }
        func id(_ text: Substring) throws(DecodingError) -> WPANetworkID {
            guard let id = WPANetworkID(text: text) else { throw .malformed("network id") }
            return id
        }
        interface = try value("interface")
        guard HotspotJoiner.isPlainInterfaceName(interface) else { throw .malformed("interface") }
        controlDirectory = try value("control_directory")
        temporaryNetwork = try id(Substring(try value("temporary_network")))
        guard let ssidBytes = AccessoryCore.bytes(fromHex: try value("temporary_ssid")), let ssid = SSID(bytes: ssidBytes) else {
            throw .malformed("temporary_ssid")
        }
        temporarySSID = ssid
        let current = try value("previous_current")
        var enabled: [WPANetworkID] = []
        for part in try value("previous_enabled").split(separator: " ") { enabled.append(try id(part)) }
        previous = NetworkSnapshot(current: current.isEmpty ? nil : try id(Substring(current)), enabled: enabled)
        dhcpPIDFile = try value("dhcp_pid_file")
    }
}
