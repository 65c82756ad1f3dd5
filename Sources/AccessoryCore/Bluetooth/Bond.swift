/// What pairing with an accessory leaves, kept with its grant when accessoryd
/// pairs without bluetoothd: the accessory's identity address, and the keys
/// it distributed. The IRK resolves its private addresses, the LTK encrypts
/// links to it (the key for this gateway as central), the CSRK checks its
/// signed writes. Removed with the grant. Beside bluetoothd the keys stay
/// with bluetoothd (`keeper`), and the bond here only says so, with the IRK
/// when accessoryd saw it go by.
public struct Bond: Hashable, Sendable {
    /// Who holds the bond's keys and loads them into the kernel.
    public enum Keeper: String, Hashable, Sendable {
        /// accessoryd's bond store (paired through the management interface).
        case accessoryd
        /// bluetoothd (paired through BlueZ's Device1.Pair): removing the bond is its RemoveDevice.
        case bluetoothd
    }

    public var accessory: AccessoryID
    /// The public or static random address the accessory gave as its identity.
    public var identity: BluetoothDeviceIdentifier
    public var irk: SecurityKey?
    public var ltk: LongTermKey?
    public var csrk: SecurityKey?
    public var keeper: Keeper

    public init(accessory: AccessoryID, identity: BluetoothDeviceIdentifier, irk: SecurityKey? = nil,
                ltk: LongTermKey? = nil, csrk: SecurityKey? = nil, keeper: Keeper = .accessoryd) {
        self.accessory = accessory
        self.identity = identity
        self.irk = irk
        self.ltk = ltk
        self.csrk = csrk
        self.keeper = keeper
    }
}
