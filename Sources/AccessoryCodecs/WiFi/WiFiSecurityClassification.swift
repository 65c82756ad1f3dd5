import AccessoryCore

/// The Capability Information field of a beacon or probe response (IEEE 802.11-2020
/// §9.4.1.4), as nl80211's NL80211_BSS_CAPABILITY carries it.
public enum CapabilityInformation {
    public static let ess: UInt16 = 0x0001
    /// Set when the BSS requires encryption: with no RSN or WPA element, that is WEP.
    public static let privacy: UInt16 = 0x0010
}

/// AKM suite types (IEEE 802.11-2020 Table 9-151, plus 802.11-2020's SAE-EXT-KEY).
enum AKMSuiteClass {
    static let psk: Set<UInt8> = [2, 4, 6, 19, 20]  // PSK, FT-PSK, PSK-SHA256, FT-PSK-SHA384, PSK-SHA384
    static let sae: Set<UInt8> = [8, 9, 24, 25]  // SAE, FT-SAE, SAE-EXT-KEY, FT-SAE-EXT-KEY
    static let owe: Set<UInt8> = [18]
    // 802.1X, FT-802.1X, 802.1X-SHA256, Suite B, Suite B-192, FT-802.1X-SHA384,
    // FILS-SHA256/384, FT-FILS-SHA256/384, 802.1X-SHA384: all authenticate through EAP.
    static let enterprise: Set<UInt8> = [1, 3, 5, 11, 12, 13, 14, 15, 16, 17, 23]
}

/// How a station may join the BSS, from its RSN and WPA elements and the privacy bit.
///
/// A network offering several AKMs gets several members (WPA2/WPA3 transition mode
/// is `[.wpa2PSK, .wpa3SAE]`). AKMs of other organizations are ignored, so an
/// RSN element with none this package knows gives the empty set ("unknown").
/// The open half of an OWE transition pair is `.open`: it is open; its hidden twin is `.owe`.
public func security(fromIEs ies: ParsedIEs, capability: UInt16) -> WiFiSecurity {
    var security: WiFiSecurity = []
    if let rsn = ies.rsn {
        for akm in rsn.akmSuites where akm.oui == SuiteSelector.ieee80211OUI {
            if AKMSuiteClass.psk.contains(akm.type) { security.insert(.wpa2PSK) }
            if AKMSuiteClass.sae.contains(akm.type) { security.insert(.wpa3SAE) }
            if AKMSuiteClass.owe.contains(akm.type) { security.insert(.owe) }
            if AKMSuiteClass.enterprise.contains(akm.type) { security.insert(.enterprise) }
        }
    }
    if let wpa = ies.wpa {
        for akm in wpa.akmSuites where akm.oui == SuiteSelector.microsoftWPAOUI {
            switch akm.type {
            case 1: security.insert(.enterprise)
            case 2: security.insert(.wpa)
            default: break
            }
        }
    }
    if ies.rsn == nil, ies.wpa == nil {
        security = capability & CapabilityInformation.privacy != 0 ? .wep : .open
    }
    return security
}
