import AccessoryCore

/// `ShowPicker`'s `a{ss} settings`: the keys, and what an app sends.
public enum WirePickerSettings {
    /// `short`, `medium`, `long`, `unbounded` or a number of seconds.
    public static let discoveryTimeout = "DiscoveryTimeout"
    /// `true` or `false`.
    public static let filterDiscoveryResults = "FilterDiscoveryResults"

    public static func pairs(_ settings: PickerDisplaySettings) -> [(key: String, value: String)] {
        [(discoveryTimeout, settings.discoveryTimeout.text),
         (filterDiscoveryResults, settings.filterDiscoveryResults ? "true" : "false")]
    }
}

/// `FinishAuthorization`'s `a{ss} settings`: the keys, each sent only when set.
public enum WireAuthorizationSettings {
    /// The accessory's full SSID, as descriptors write one (`\xNN` for any octet).
    public static let ssid = "SSID"
    public static let bridgingIdentifier = "BridgingIdentifier"

    public static func pairs(ssid: SSID?, bridgingIdentifier: String?) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        if let ssid { pairs.append((Self.ssid, SSIDText.escaped(ssid.bytes))) }
        if let bridgingIdentifier { pairs.append((Self.bridgingIdentifier, bridgingIdentifier)) }
        return pairs
    }
}
