import AccessoryCore

/// The address and address type as management packets carry them: six
/// octets least significant first, then 0 BR/EDR, 1 LE public, 2 LE random
/// (not HCI's numbering, which starts LE public at 0).
enum ManagementAddress {
    static let length = 7

    static func encode(_ device: BluetoothDeviceIdentifier) -> [UInt8] {
        let type: UInt8 = switch device.addressType {
        case .public, .publicIdentity: 1
        case .random, .randomIdentity: 2
        }
        return device.address.littleEndianOctets + [type]
    }

    /// Nil for BR/EDR (0): pairing over the other transport, none of accessoryd's business.
    static func decode(_ octets: ArraySlice<UInt8>, event: UInt16) throws(ManagementDecodingError) -> BluetoothDeviceIdentifier? {
        let start = octets.startIndex
        let address = HardwareAddress(littleEndianOctets: octets[start..<start + 6])!
        switch octets[start + 6] {
        case 0: return nil
        case 1: return BluetoothDeviceIdentifier(address: address, addressType: .public)
        case 2: return BluetoothDeviceIdentifier(address: address, addressType: .random)
        case let other: throw .unknownAddressType(event: event, other)
        }
    }
}
