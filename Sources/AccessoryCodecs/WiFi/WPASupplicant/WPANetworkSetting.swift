import AccessoryCore

/// One `SET_NETWORK` variable with a value that is valid by construction: the
/// SSID always goes as hex (any byte is safe that way), secrets are checked
/// types, everything else is an enumeration.
public enum WPANetworkSetting: Hashable, Sendable, CustomStringConvertible {
    public enum KeyManagement: String, Hashable, Sendable {
        case none = "NONE"
        case psk = "WPA-PSK"
        case sae = "SAE"
    }

    public enum ManagementFrameProtection: Int, Hashable, Sendable {
        case disabled = 0, optional = 1, required = 2
    }

    case ssid(SSID)
    case psk(WPAPassphrase)
    case saePassword(SAEPassword)
    case keyManagement([KeyManagement])
    case managementFrameProtection(ManagementFrameProtection)
    /// Probe for the SSID by name: finds hidden networks, and a hotspot that has just come up sooner.
    case scanSSID(Bool)

    public var variable: String {
        switch self {
        case .ssid: "ssid"
        case .psk: "psk"
        case .saePassword: "sae_password"
        case .keyManagement: "key_mgmt"
        case .managementFrameProtection: "ieee80211w"
        case .scanSSID: "scan_ssid"
        }
    }

    /// The value as wpa_supplicant's `SET_NETWORK` parses it.
    var controlValue: [UInt8] {
        switch self {
        case .ssid(let ssid): Array(hexString(ssid.bytes).utf8)
        case .psk(let passphrase): passphrase.controlValue
        case .saePassword(let password): Array(hexString(password.bytes).utf8)
        case .keyManagement(let methods): Array(methods.map(\.rawValue).joined(separator: " ").utf8)
        case .managementFrameProtection(let level): Array(String(level.rawValue).utf8)
        case .scanSSID(let on): Array((on ? "1" : "0").utf8)
        }
    }

    /// Safe for a log line: secrets are redacted, the SSID shown as the hex that is sent.
    public var description: String {
        switch self {
        case .psk, .saePassword: "\(variable) <redacted>"
        default: "\(variable) \(String(decoding: controlValue, as: UTF8.self))"
        }
    }
}
