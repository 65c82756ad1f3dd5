import AccessoryCore

/// What a beacon's or probe response's information elements say about a BSS.
/// When an element appears more than once, the first one counts (as in
/// wpa_supplicant); `elements` keeps them all.
public struct ParsedIEs: Hashable, Sendable {
    public var elements: [InformationElement] = []
    /// Nil when there is no SSID element at all; empty or all-zero for a hidden network.
    public var ssid: SSID?
    /// Supported Rates then Extended Supported Rates, as carried: bit 7 marks a
    /// basic rate, the low 7 bits are the rate in 500 kb/s units (or a BSS membership selector).
    public var supportedRates: [UInt8] = []
    /// The DS Parameter Set's current channel (2.4 GHz BSSes).
    public var dsChannel: UInt8?
    public var htOperation: HTOperation?
    public var vhtOperation: VHTOperation?
    public var heOperation: HEOperation?
    public var rsn: RSNElement?
    public var wpa: WPAElement?
    public var oweTransition: OWETransitionElement?

    public init() {}

    /// The primary channel number as the elements give it, most specific first.
    public var primaryChannel: UInt8? {
        heOperation?.sixGHzOperation?.primaryChannel ?? dsChannel ?? htOperation?.primaryChannel
    }

    /// The band the elements imply: 6 GHz operation information means 6 GHz;
    /// otherwise the DS Parameter Set's or HT Operation's channel decides, 14 and
    /// below being 2.4 GHz (hostapd sends a DS Parameter Set on 5 GHz too); VHT
    /// operation alone means 5 GHz. Nil when they say nothing. nl80211's frequency
    /// is authoritative; this is for frames heard without it.
    public var band: WiFiChannel.Band? {
        if heOperation?.sixGHzOperation != nil { return .ghz6 }
        if let channel = dsChannel ?? htOperation?.primaryChannel {
            return channel <= 14 ? .ghz2_4 : .ghz5
        }
        if vhtOperation != nil { return .ghz5 }
        return nil
    }
}
