/// A resolvable private address (Core Spec Vol 6 Part B §1.3.2.2): a random
/// address whose two most significant bits are `01`. Its 24 most significant
/// bits are `prand` (the two marker bits included), its 24 least the hash
/// `ah(IRK, prand)` that only a holder of the device's IRK can check.
public struct ResolvablePrivateAddress: Hashable, Sendable {
    public let address: BluetoothAddress

    /// nil for a public address, a static random or a non-resolvable private one.
    public init?(_ device: BluetoothDeviceIdentifier) {
        guard device.addressType == .random, device.address.rawValue >> 46 == 0b01 else { return nil }
        address = device.address
    }

    /// The address a device holding `key` (an IRK's encryptor) makes from the
    /// random part of `prand`: the marker bits set, the hash appended. What a
    /// peripheral does each time it rotates; the lab's and the tests' too.
    public init(prand: UInt32, key: any AES128Encryptor) {
        let marked = prand & 0x3F_FFFF | 0x40_0000
        address = BluetoothAddress(rawValue: UInt64(marked) << 24 | UInt64(RandomAddressHash.ah(key, marked)))!
    }

    public var device: BluetoothDeviceIdentifier { BluetoothDeviceIdentifier(address: address, addressType: .random) }

    public var prand: UInt32 { UInt32(truncatingIfNeeded: address.rawValue >> 24) }
    public var hash: UInt32 { UInt32(truncatingIfNeeded: address.rawValue & 0xFF_FFFF) }

    /// Whether the address was made from `key` (the encryptor of an IRK): one block encryption.
    public func isMade(by key: any AES128Encryptor) -> Bool {
        RandomAddressHash.ah(key, prand) == hash
    }
}
