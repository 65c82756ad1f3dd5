import AccessoryCore

/// What the app learned during its own part of setup (`ASAccessorySettings`),
/// given to `finishAuthorization`.
public struct AccessorySettings: Hashable, Sendable {
    /// The accessory's full SSID, when the descriptor had only a prefix.
    public var ssid: SSID?
    /// The identifier of a Bluetooth accessory bridged to another transport.
    public var bridgingIdentifier: String?

    public init(ssid: SSID? = nil, bridgingIdentifier: String? = nil) {
        self.ssid = ssid
        self.bridgingIdentifier = bridgingIdentifier
    }
}
