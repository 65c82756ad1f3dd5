/// The ways a BSS lets stations in, as its RSN/WPA information elements say.
/// A set, because a transition-mode network offers more than one
/// (WPA2-PSK and WPA3-SAE together, say).
public struct WiFiSecurity: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// No RSN/WPA element and no privacy bit.
    public static let open = WiFiSecurity(rawValue: 1 << 0)
    /// Opportunistic Wireless Encryption (AKM 18).
    public static let owe = WiFiSecurity(rawValue: 1 << 1)
    /// The privacy capability bit without any RSN/WPA element.
    public static let wep = WiFiSecurity(rawValue: 1 << 2)
    /// The WPA vendor element (WPA1) with PSK.
    public static let wpa = WiFiSecurity(rawValue: 1 << 3)
    /// RSN with AKM 2 (PSK) or 6 (PSK-SHA256).
    public static let wpa2PSK = WiFiSecurity(rawValue: 1 << 4)
    /// RSN with AKM 8 (SAE) or 24 (SAE-EXT-KEY).
    public static let wpa3SAE = WiFiSecurity(rawValue: 1 << 5)
    /// RSN or WPA with an 802.1X AKM.
    public static let enterprise = WiFiSecurity(rawValue: 1 << 6)

    static let names: [(WiFiSecurity, String)] = [
        (.open, "open"), (.owe, "owe"), (.wep, "wep"), (.wpa, "wpa"),
        (.wpa2PSK, "wpa2-psk"), (.wpa3SAE, "wpa3-sae"), (.enterprise, "enterprise"),
    ]

    /// `wpa2-psk+wpa3-sae` for a transition-mode network; `unknown` for none.
    public var description: String {
        let parts = Self.names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "unknown" : parts.joined(separator: "+")
    }
}
