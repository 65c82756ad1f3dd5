/// What pairing with an accessory leaves, kept with its grant when accessoryd
/// pairs without bluetoothd: the accessory's identity address, and the keys
/// it distributed. The IRK resolves its private addresses, the LTK encrypts
/// links to it (the key for this gateway as central), the CSRK checks its
/// signed writes. Removed with the grant.
public struct Bond: Hashable, Sendable {
    public var accessory: AccessoryID
    /// The public or static random address the accessory gave as its identity.
    public var identity: BluetoothDeviceIdentifier
    public var irk: SecurityKey?
    public var ltk: LongTermKey?
    public var csrk: SecurityKey?

    public init(accessory: AccessoryID, identity: BluetoothDeviceIdentifier, irk: SecurityKey? = nil,
                ltk: LongTermKey? = nil, csrk: SecurityKey? = nil) {
        self.accessory = accessory
        self.identity = identity
        self.irk = irk
        self.ltk = ltk
        self.csrk = csrk
    }
}
