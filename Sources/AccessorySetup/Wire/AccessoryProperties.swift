import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// Why an accessory object's properties (`WireAccessoryProperties`, read
/// from `Properties.GetAll`) do not describe an accessory.
enum AccessoryPropertiesError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidValue(property: String, value: String)
    case invalidDescriptor(DescriptorFields.FieldError)

    var description: String {
        switch self {
        case .invalidValue(let property, let value): "property \(property) has the invalid value \"\(value)\""
        case .invalidDescriptor(let error): "property Descriptor: \(error)"
        }
    }
}

extension WireAccessoryProperties {
    /// The accessory these values describe.
    func accessory(id: AccessoryID) throws(AccessoryPropertiesError) -> Accessory {
        guard let state = AuthorizationState(rawValue: state) else {
            throw .invalidValue(property: Accessory1.state.name, value: state)
        }
        var bluetooth: BluetoothDeviceIdentifier?
        if !bluetoothAddress.isEmpty {
            guard let address = BluetoothAddress(bluetoothAddress) else {
                throw .invalidValue(property: Accessory1.bluetoothAddress.name, value: bluetoothAddress)
            }
            guard let type = BluetoothAddressType.allNamed.first(where: { "\($0)" == bluetoothAddressType }) else {
                throw .invalidValue(property: Accessory1.bluetoothAddressType.name, value: bluetoothAddressType)
            }
            bluetooth = BluetoothDeviceIdentifier(address: address, addressType: type)
        }
        var ssid: SSID?
        if !self.ssid.isEmpty {
            guard let value = SSID(bytes: self.ssid) else {
                throw .invalidValue(property: Accessory1.ssid.name, value: hexString(self.ssid))
            }
            ssid = value
        }
        let descriptor: DiscoveryDescriptor
        do {
            descriptor = try DescriptorFields.descriptor(from: self.descriptor.map { (key: $0.key, value: $0.value) })
        } catch {
            throw .invalidDescriptor(error)
        }
        return Accessory(
            id: id, displayName: displayName, state: state, bluetoothIdentifier: bluetooth, ssid: ssid,
            descriptor: descriptor, bridgingIdentifier: bridgingIdentifier.isEmpty ? nil : bridgingIdentifier,
            // Not heard, or heard without a strength (127 on the bus): none.
            isPresent: present, rssi: present == false ? nil : rssi.flatMap(BusRSSI.decode))
    }
}

extension BluetoothAddressType {
    /// Every address type, by the name the agent writes (`public`, `random`, …).
    static let allNamed: [BluetoothAddressType] = [.public, .random, .publicIdentity, .randomIdentity]
}
