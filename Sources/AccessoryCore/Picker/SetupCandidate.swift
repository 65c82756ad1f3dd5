/// One unique device found for a setup request: what the person deciding
/// is shown (and, with `filterDiscoveryResults`, the app first).
public struct SetupCandidate: Hashable, Sendable {
    /// Numbered from 1 within its request.
    public let number: UInt32
    /// The display item whose descriptor found it.
    public let item: Int
    /// As heard; a pairing may replace a private address with the identity
    /// address the accessory gave (its bond names that one).
    public internal(set) var identity: DeviceIdentity
    /// The name it advertises (or the SSID), as heard.
    public var advertisedName: String
    /// What the app chose to show it as (`updatePicker`), if anything.
    public var displayName: String?
    public var productImagePath: String?
    /// dBm; nil when not known (a migrated device, a radio that gave none).
    public var rssi: Int?
    /// The advertising data heard (AD structures), for `accessoryDiscovered`.
    public var advertisingData: [UInt8]
    /// With `filterDiscoveryResults`, hidden until the app shows it.
    public var visible: Bool

    public init(number: UInt32, item: Int, identity: DeviceIdentity, advertisedName: String, rssi: Int?,
                advertisingData: [UInt8], visible: Bool) {
        self.number = number
        self.item = item
        self.identity = identity
        self.advertisedName = advertisedName
        self.rssi = rssi
        self.advertisingData = advertisingData
        self.visible = visible
    }

    public var name: String { displayName ?? advertisedName }
}
