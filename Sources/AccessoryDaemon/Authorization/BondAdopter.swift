import AccessoryCore

/// What the keeper of a gateway's bonds said about some devices.
public enum BondLookupAnswer: Hashable, Sendable, CustomStringConvertible {
    /// The devices asked about that it keeps a bond of (maybe none).
    case bonded(Set<BluetoothDeviceIdentifier>)
    /// It could not say: no answer in time, an error, a reply that could not be read.
    case failed(String)

    public var description: String {
        switch self {
        case .bonded(let devices) where devices.isEmpty: "it keeps no bond of them"
        case .bonded(let devices): "it keeps the bond of " + devices.sorted().map { "\($0)" }.joined(separator: ", ")
        case .failed(let why): why
        }
    }
}

/// A pairing back end whose keeper may hold bonds made before accessoryd
/// granted anything: bluetoothd, which a person may have paired the
/// accessory with (`bluetoothctl pair`). A migration naming such a device
/// adopts its bond: the grant gets a record saying who keeps the keys.
public protocol BondAdopter: AnyObject {
    /// Asks which of `devices` the keeper holds a bond of. `answer` runs
    /// exactly once, on a later turn of the loop, and never later than the
    /// back end's own time box: a keeper that does not answer holds nothing up.
    func lookUpBonds(of devices: Set<BluetoothDeviceIdentifier>, answer: @escaping (BondLookupAnswer) -> Void)
    /// Records each accessory's bond as the keeper's, under the device's
    /// address, durable before returning. A throw records none.
    func adopt(_ bonds: [AccessoryID: BluetoothDeviceIdentifier]) throws
}
