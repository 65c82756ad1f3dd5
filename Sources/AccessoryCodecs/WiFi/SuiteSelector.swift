import AccessoryCore

/// A cipher or AKM suite selector: an organization identifier and a suite type
/// (IEEE 802.11-2020 §9.4.2.24.2–3). RSN uses 00-0F-AC; the WPA vendor element 00-50-F2.
public struct SuiteSelector: Hashable, Sendable, CustomStringConvertible {
    public static let ieee80211OUI: UInt32 = 0x000FAC
    public static let microsoftWPAOUI: UInt32 = 0x0050F2
    public static let wiFiAllianceOUI: UInt32 = 0x506F9A

    /// The 24-bit OUI, most significant octet first.
    public let oui: UInt32
    public let type: UInt8

    public init(oui: UInt32, type: UInt8) {
        self.oui = oui & 0xFF_FFFF
        self.type = type
    }

    /// From the four octets as they appear in an element.
    init(octets: ArraySlice<UInt8>) {
        var bytes = octets.makeIterator()
        let a = UInt32(bytes.next() ?? 0), b = UInt32(bytes.next() ?? 0), c = UInt32(bytes.next() ?? 0)
        self.init(oui: a << 16 | b << 8 | c, type: bytes.next() ?? 0)
    }

    public static func ieee80211(_ type: UInt8) -> Self { Self(oui: ieee80211OUI, type: type) }
    public static func wpa(_ type: UInt8) -> Self { Self(oui: microsoftWPAOUI, type: type) }

    // Cipher suites (Table 9-149), the same type numbers under both OUIs for these.
    public static let tkip = ieee80211(2)
    public static let ccmp = ieee80211(4)
    public static let wpaTKIP = wpa(2)

    // AKM suites (Table 9-151).
    public static let akm8021X = ieee80211(1)
    public static let wpaAKM8021X = wpa(1)

    /// `00-0F-AC:4`.
    public var description: String {
        let octets = [UInt8(truncatingIfNeeded: oui >> 16), UInt8(truncatingIfNeeded: oui >> 8),
                      UInt8(truncatingIfNeeded: oui)]
        return octets.map { hexByte($0, uppercase: true) }.joined(separator: "-") + ":\(type)"
    }
}
