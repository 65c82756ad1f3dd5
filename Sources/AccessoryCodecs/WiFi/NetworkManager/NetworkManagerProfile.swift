import AccessoryCore

/// The connection profile accessoryd hands NetworkManager for one hotspot
/// join (`AddAndActivateConnection2`'s `a{sa{sv}}`), as a value: built and
/// checked without a bus. The profile is kept in memory only (the call's
/// `persist=volatile`), bound to the join interface, never autoconnected,
/// with the secret inside it (`psk-flags` 0: NetworkManager owns it, so no
/// secret agent is asked), IPv4 from the hotspot's DHCP through
/// NetworkManager's own client but never the default route (the uplink keeps
/// it), and IPv6 off.
public struct NetworkManagerProfile: Hashable, Sendable {
    /// One setting's value, in the D-Bus types NetworkManager expects.
    public enum Value: Hashable, Sendable {
        case string(String)
        case bool(Bool)
        case uint32(UInt32)
        case int32(Int32)
        case bytes([UInt8])
        /// The passphrase or SAE password: sent as a string, never shown.
        case secret(Secret)
    }

    /// A secret on its way into the profile. Printing, interpolating or dumping it shows `<redacted>`.
    public struct Secret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// For the bus message only.
        public let text: String
        init(_ bytes: [UInt8]) { text = String(decoding: bytes, as: UTF8.self) }
        public var description: String { "<redacted>" }
        public var debugDescription: String { "<redacted>" }
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    public typealias Group = (name: String, settings: [(key: String, value: Value)])

    public let uuid: String
    public let id: String
    public let groups: [Group]

    /// The profile's name in NetworkManager: says who made it and for which interface.
    public static func name(interface: String) -> String { "accessoryd-join-\(interface)" }

    public init(uuid: String, interface: String, ssid: SSID, credential: WPACredential) {
        self.uuid = uuid
        id = Self.name(interface: interface)
        // hidden: probe for the SSID by name, as the wpa route's scan_ssid=1 does (hidden hotspots answer only those).
        var wireless: [(key: String, value: Value)] = [
            ("ssid", .bytes(ssid.bytes)), ("mode", .string("infrastructure")), ("hidden", .bool(true)),
        ]
        var groups: [Group] = [
            ("connection", [
                ("type", .string("802-11-wireless")), ("id", .string(id)), ("uuid", .string(uuid)),
                ("interface-name", .string(interface)), ("autoconnect", .bool(false)),
            ]),
        ]
        switch credential {
        case .open:
            break
        case .wpa2(let passphrase):
            wireless.append(("security", .string("802-11-wireless-security")))
            groups.append(("802-11-wireless-security", [
                ("key-mgmt", .string("wpa-psk")), ("psk", .secret(Secret(passphrase.bytes))), ("psk-flags", .uint32(0)),
            ]))
        case .sae(let password):
            wireless.append(("security", .string("802-11-wireless-security")))
            groups.append(("802-11-wireless-security", [
                // pmf 3: required, as WPA3-SAE demands (the wpa route's ieee80211w=2).
                ("key-mgmt", .string("sae")), ("psk", .secret(Secret(password.bytes))), ("psk-flags", .uint32(0)),
                ("pmf", .int32(3)),
            ]))
        }
        groups.insert(("802-11-wireless", wireless), at: 1)
        groups.append(("ipv4", [("method", .string("auto")), ("never-default", .bool(true))]))
        groups.append(("ipv6", [("method", .string("disabled"))]))
        self.groups = groups
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.uuid == rhs.uuid && lhs.id == rhs.id && lhs.groups.count == rhs.groups.count
            && zip(lhs.groups, rhs.groups).allSatisfy { a, b in
                a.name == b.name && a.settings.count == b.settings.count
                    && zip(a.settings, b.settings).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }

    /// A setting's value, for checks and tests.
    public func value(_ group: String, _ key: String) -> Value? {
        groups.first { $0.name == group }?.settings.first { $0.key == key }?.value
    }
}
