/// One Wi-Fi BSS as heard in a scan.
public struct WiFiNetwork: Hashable, Sendable {
    public var bssid: BSSID
    public var ssid: SSID
    public var frequencyMHz: UInt32
    /// In dBm (nl80211 reports mBm; the codec divides).
    public var signalDBm: Int?
    public var security: WiFiSecurity
    /// How long ago the kernel last heard this BSS, in milliseconds.
    public var seenMillisecondsAgo: UInt32?
    /// The interface index the scan ran on.
    public var interfaceIndex: UInt32?
    /// The information elements as heard (beacon or probe response).
    public var informationElements: [UInt8]

    public init(
        bssid: BSSID,
        ssid: SSID,
        frequencyMHz: UInt32,
        signalDBm: Int? = nil,
        security: WiFiSecurity = .open,
        seenMillisecondsAgo: UInt32? = nil,
        interfaceIndex: UInt32? = nil,
        informationElements: [UInt8] = []
    ) {
        self.bssid = bssid
        self.ssid = ssid
        self.frequencyMHz = frequencyMHz
        self.signalDBm = signalDBm
        self.security = security
        self.seenMillisecondsAgo = seenMillisecondsAgo
        self.interfaceIndex = interfaceIndex
        self.informationElements = informationElements
    }

    public var channel: Int? { WiFiChannel.number(forFrequencyMHz: frequencyMHz) }
    public var band: WiFiChannel.Band? { WiFiChannel.band(forFrequencyMHz: frequencyMHz) }
}

/// Channel numbering per IEEE 802.11-2020 Annex E (the same arithmetic as the
/// kernel's ieee80211_freq_khz_to_channel).
public enum WiFiChannel {
    public enum Band: String, Sendable { case ghz2_4 = "2.4GHz", ghz5 = "5GHz", ghz6 = "6GHz", ghz60 = "60GHz" }

    public static func band(forFrequencyMHz f: UInt32) -> Band? {
        switch f {
        case 2412...2484: .ghz2_4
        case 4910...5895: .ghz5
        case 5955...7115: .ghz6
        case 58320...70200: .ghz60
        default: nil
        }
    }

    public static func number(forFrequencyMHz f: UInt32) -> Int? {
        switch f {
        case 2484: 14
        case 2412..<2484 where (f - 2407) % 5 == 0: Int(f - 2407) / 5
        case 4910...4980 where f % 5 == 0: Int(f - 4000) / 5
        case 5000...5895 where f % 5 == 0: Int(f - 5000) / 5
        case 5935: 2
        case 5955...7115 where (f - 5950) % 5 == 0: Int(f - 5950) / 5
        case 58320...70200 where (f - 56160) % 2160 == 0: Int(f - 56160) / 2160
        default: nil
        }
    }
}
