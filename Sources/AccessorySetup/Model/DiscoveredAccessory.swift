import AccessoryCore

/// A device the picker found, reported to an app that filters the results
/// itself (`filterDiscoveryResults`); not yet an accessory of the app.
public struct DiscoveredAccessory: Hashable, Sendable {
    /// The agent's number for it within this picker, for `updatePicker(showing:)`.
    public var candidate: UInt32
    public var name: String
    /// Its Bluetooth address (`AA:BB:CC:DD:EE:FF/random`) or its SSID.
    public var identity: String
    /// dBm; nil when the radio gave none.
    public var rssi: Int?
    /// The advertising data heard (AD structures, advertisement and scan
    /// response merged); empty for a Wi-Fi candidate.
    public var advertisement: [UInt8]

    public init(candidate: UInt32, name: String, identity: String, rssi: Int?, advertisement: [UInt8]) {
        self.candidate = candidate
        self.name = name
        self.identity = identity
        self.rssi = rssi
        self.advertisement = advertisement
    }
}

/// A discovered candidate as the app wants it shown (`ASDiscoveredDisplayItem`).
public struct DiscoveredDisplayItem: Hashable, Sendable {
    public var candidate: UInt32
    public var name: String
    public var productImagePath: String?

    public init(_ accessory: DiscoveredAccessory, name: String? = nil, productImagePath: String? = nil) {
        self.candidate = accessory.candidate
        self.name = name ?? accessory.name
        self.productImagePath = productImagePath
    }
}
