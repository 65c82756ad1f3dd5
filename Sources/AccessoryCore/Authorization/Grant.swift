/// One accessory approved for one app: what the grant store keeps across
/// restarts and power cuts.
public struct Grant: Hashable, Sendable {
    public var accessory: AccessoryID
    public var app: AppID
    public var displayName: String
    public var state: AuthorizationState
    /// The Bluetooth LE identity, for a Bluetooth accessory.
    public var bluetooth: BluetoothDeviceIdentifier?
    /// The hotspot's SSID, for a Wi-Fi accessory.
    public var ssid: SSID?
    /// The descriptor it was found with (or last updated to).
    public var descriptor: DiscoveryDescriptor?
    /// `bridgingIdentifier` from `finishAuthorization`'s settings.
    public var bridgingIdentifier: String?
    /// The SSID was renamed with the `ssid` rename option (the hotspot's
    /// name changes; the app reconfigures the accessory).
    public var ssidRenamed: Bool
    /// The app asked (`ObservePresence`) to be woken when this accessory
    /// appears: kept with the grant, so it outlives reboots and goes with it.
    public var observesPresence: Bool

    public init(
        accessory: AccessoryID, app: AppID, displayName: String, state: AuthorizationState,
        bluetooth: BluetoothDeviceIdentifier? = nil, ssid: SSID? = nil, descriptor: DiscoveryDescriptor? = nil,
        bridgingIdentifier: String? = nil, ssidRenamed: Bool = false,
        observesPresence: Bool = false
    ) {
        self.accessory = accessory
        self.app = app
        self.displayName = displayName
        self.state = state
        self.bluetooth = bluetooth
        self.ssid = ssid
        self.descriptor = descriptor
        self.bridgingIdentifier = bridgingIdentifier
        self.ssidRenamed = ssidRenamed
        self.observesPresence = observesPresence
    }
}
