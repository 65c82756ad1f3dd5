/// `ASMigrationDisplayItem`: an accessory the gateway already knows (a
/// Bluetooth LE address or a full SSID), registered for an app once.
public struct MigrationItem: Hashable, Sendable {
    public var name: String
    public var identity: DeviceIdentity
    public var descriptor: DiscoveryDescriptor

    public init(name: String, identity: DeviceIdentity, descriptor: DiscoveryDescriptor) {
        self.name = name
        self.identity = identity
        self.descriptor = descriptor
    }
}
