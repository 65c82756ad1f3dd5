import AccessoryCore
import AccessoryPlatform

extension BluetoothControllerInfo {
    /// A controller described field by field, for code that decides among
    /// controllers (the channel broker) and its tests.
    public init(index: UInt16, name: String, address: BluetoothAddress, isUp: Bool, supportsLowEnergy: Bool) {
        self.index = index
        self.name = name
        self.address = address
        self.isUp = isUp
        self.supportsLowEnergy = supportsLowEnergy
    }
}
