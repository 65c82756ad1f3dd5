import AccessoryCore

/// Everything a NL80211_CMD_NEW_SCAN_RESULTS message says about one BSS, decoded.
/// `network` is the Core model the rest of the daemon works with.
public struct NL80211ScanResult: Hashable, Sendable {
    public var interfaceIndex: UInt32?
    public var bssid: BSSID
    public var frequencyMHz: UInt32
    /// Signal in mBm (hundredths of dBm), when the driver reports dBm.
    public var signalMBm: Int32?
    /// Signal quality 0…100 in no unit, when the driver cannot report dBm.
    public var signalUnspecified: UInt8?
    public var seenMillisecondsAgo: UInt32?
    public var capability: UInt16
    /// Present only for the BSS the interface is authenticated or associated with.
    public var status: NL80211.BSSStatus?
    /// NL80211_BSS_INFORMATION_ELEMENTS: from the latest beacon or probe response.
    public var informationElements: [UInt8]
    /// NL80211_BSS_BEACON_IES: from the latest beacon, when one was heard.
    public var beaconInformationElements: [UInt8]?
    /// `informationElements` parsed (the beacon's when those are absent).
    public var parsedIEs: ParsedIEs

    public var security: WiFiSecurity { AccessoryCodecs.security(fromIEs: parsedIEs, capability: capability) }

    /// mBm to dBm, rounded to the nearest dBm (half away from zero).
    public var signalDBm: Int? {
        signalMBm.map { mBm in
            let value = Int(mBm)
            return (value + (value < 0 ? -50 : 50)) / 100
        }
    }

    /// The Core model: an absent SSID element reads as a hidden (empty) SSID.
    public var network: WiFiNetwork {
        WiFiNetwork(
            bssid: bssid,
            ssid: parsedIEs.ssid ?? emptySSID,
            frequencyMHz: frequencyMHz,
            signalDBm: signalDBm,
            security: security,
            seenMillisecondsAgo: seenMillisecondsAgo,
            interfaceIndex: interfaceIndex,
            informationElements: informationElements)
    }
}

/// Zero bytes always fit in an SSID, so this unwrap cannot fail.
private let emptySSID = SSID(bytes: [])!
