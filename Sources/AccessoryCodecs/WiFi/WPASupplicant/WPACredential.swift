/// How a station proves it may join: nothing (an open network), a WPA2
/// passphrase or PSK, or a WPA3 SAE password. Its description never shows the secret.
public enum WPACredential: Hashable, Sendable, CustomStringConvertible {
    case open
    case wpa2(WPAPassphrase)
    case sae(SAEPassword)

    public var description: String {
        switch self {
        case .open: "open"
        case .wpa2: "wpa2-psk <redacted>"
        case .sae: "wpa3-sae <redacted>"
        }
    }

    /// The network block settings for this credential, after the SSID.
    public var networkSettings: [WPANetworkSetting] {
        switch self {
        case .open: [.keyManagement([.none])]
        case .wpa2(let passphrase): [.keyManagement([.psk]), .psk(passphrase)]
        case .sae(let password): [.keyManagement([.sae]), .managementFrameProtection(.required), .saePassword(password)]
        }
    }
}
