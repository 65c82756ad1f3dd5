import AccessoryCore

/// An accessory the agent authorized for this app (`ASAccessory`), as its
/// object on the bus describes it. Only this app can see it.
public struct Accessory: Hashable, Sendable, Identifiable {
    /// Stable across restarts of the agent.
    public var id: AccessoryID
    public var displayName: String
    public var state: AuthorizationState
    /// The Bluetooth LE identity, for a Bluetooth accessory.
    public var bluetoothIdentifier: BluetoothDeviceIdentifier?
    /// The hotspot, for a Wi-Fi accessory.
    public var ssid: SSID?
    /// The descriptor it was found with.
    public var descriptor: DiscoveryDescriptor
    /// Set by `finishAuthorization` for a bridged accessory; nil when not.
    public var bridgingIdentifier: String?
    /// Whether the agent hears it now, and how strongly (dBm), when it says.
    public var isPresent: Bool?
    public var rssi: Int?

    public init(
        id: AccessoryID, displayName: String, state: AuthorizationState,
        bluetoothIdentifier: BluetoothDeviceIdentifier? = nil, ssid: SSID? = nil,
        descriptor: DiscoveryDescriptor = DiscoveryDescriptor(), bridgingIdentifier: String? = nil,
        isPresent: Bool? = nil, rssi: Int? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.state = state
        self.bluetoothIdentifier = bluetoothIdentifier
        self.ssid = ssid
        self.descriptor = descriptor
        self.bridgingIdentifier = bridgingIdentifier
        self.isPresent = isPresent
        self.rssi = rssi
    }
}
