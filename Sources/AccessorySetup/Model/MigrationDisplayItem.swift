import AccessoryCore

/// An accessory the gateway already uses, to be registered with the agent
/// once (`ASMigrationDisplayItem`): by its Bluetooth identity or its full SSID.
public struct MigrationDisplayItem: Hashable, Sendable {
    public var name: String
    public var bluetoothIdentifier: BluetoothDeviceIdentifier?
    public var ssid: SSID?
    public var descriptor: DiscoveryDescriptor

    public init(
        name: String, bluetoothIdentifier: BluetoothDeviceIdentifier? = nil, ssid: SSID? = nil,
        descriptor: DiscoveryDescriptor
    ) {
        self.name = name
        self.bluetoothIdentifier = bluetoothIdentifier
        self.ssid = ssid
        self.descriptor = descriptor
    }
}
