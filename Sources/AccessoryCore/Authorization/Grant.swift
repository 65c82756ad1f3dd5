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

    public init(
        accessory: AccessoryID, app: AppID, displayName: String, state: AuthorizationState,
        bluetooth: BluetoothDeviceIdentifier? = nil, ssid: SSID? = nil
    ) {
        self.accessory = accessory
        self.app = app
        self.displayName = displayName
        self.state = state
        self.bluetooth = bluetooth
        self.ssid = ssid
    }
}
