/// The LE address type as HCI reports it in advertising reports (Core Spec Vol 4 Part E §7.7.65.2).
public enum BluetoothAddressType: UInt8, Hashable, Sendable, CustomStringConvertible {
    case `public` = 0x00
    case random = 0x01
    /// A resolvable private address the controller resolved to a public identity.
    case publicIdentity = 0x02
    /// A resolvable private address the controller resolved to a static random identity.
    case randomIdentity = 0x03

    public var description: String {
        switch self {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public-identity"
        case .randomIdentity: "random-identity"
        }
    }
}

/// A Bluetooth LE device's identity as the agent keys it: the address and its type.
public struct BluetoothDeviceIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var address: BluetoothAddress
    public var addressType: BluetoothAddressType

    public init(address: BluetoothAddress, addressType: BluetoothAddressType) {
        self.address = address
        self.addressType = addressType
    }

    public var description: String { "\(address)/\(addressType)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.address, lhs.addressType.rawValue) < (rhs.address, rhs.addressType.rawValue)
    }
}
