import AccessoryCore

/// A New Long Term Key event's key as the kernel reports it.
public struct ManagementLongTermKey: Hashable, Sendable {
    public var device: BluetoothDeviceIdentifier
    /// 0 unauthenticated, 1 authenticated (legacy); 2 unauthenticated, 3
    /// authenticated, 4 debug (LE Secure Connections, P-256).
    public var keyType: UInt8
    /// Legacy pairing distributes a key for each role: this one is used
    /// when this side is central (the initiator), the only role accessoryd takes.
    public var central: Bool
    public var encryptionSize: UInt8
    public var ediv: UInt16
    public var rand: UInt64
    public var key: SecurityKey
    /// The kernel's advice to keep the key (off for debug keys and pairings without bonding).
    public var storeHint: Bool

    public init(device: BluetoothDeviceIdentifier, keyType: UInt8, central: Bool, encryptionSize: UInt8, ediv: UInt16,
                rand: UInt64, key: SecurityKey, storeHint: Bool) {
        self.device = device
        self.keyType = keyType
        self.central = central
        self.encryptionSize = encryptionSize
        self.ediv = ediv
        self.rand = rand
        self.key = key
        self.storeHint = storeHint
    }

    /// The key as a bond keeps it: nil for a legacy responder's key (not
    /// for this side as central), an unknown key type, or a size pairing cannot agree.
    public var longTermKey: LongTermKey? {
        let secureConnections: Bool
        switch keyType {
        case 0, 1:
            guard central else { return nil }
            secureConnections = false
        case 2, 3, 4: secureConnections = true
        default: return nil
        }
        guard LongTermKey.keySizes.contains(encryptionSize) else { return nil }
        return LongTermKey(key: key, ediv: secureConnections ? 0 : ediv, rand: secureConnections ? 0 : rand,
                           keySize: encryptionSize, authenticated: keyType == 1 || keyType == 3, secureConnections: secureConnections)
    }
}
