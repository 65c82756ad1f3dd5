import AccessoryCore
import AccessoryPlatform

/// Reads an accessory from the reply to `Properties.GetAll` on its object
/// (`a{sv}`). Properties this library does not know are skipped, so a newer
/// agent may add some; a known one with the wrong type is an error.
enum AccessoryProperties {
    /// Why the properties do not describe an accessory.
    enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case invalidValue(property: String, value: String)
        case invalidDescriptor(DescriptorFields.FieldError)

        var description: String {
            switch self {
            case .invalidValue(let property, let value): "property \(property) has the invalid value \"\(value)\""
            case .invalidDescriptor(let error): "property Descriptor: \(error)"
            }
        }
    }

    /// The raw values, as read; decoded into an `Accessory` by `accessory(id:)`.
    struct Values: Hashable, Sendable {
        var displayName = ""
        var state = ""
        var bluetoothAddress = ""
        var bluetoothAddressType = ""
        var ssid: [UInt8] = []
        var descriptor: [BusVariant.Pair] = []
        var bridgingIdentifier = ""
        var present: Bool?
        var rssi: Int32?

        func accessory(id: AccessoryID) throws(DecodingError) -> Accessory {
            guard let state = AuthorizationState(rawValue: state) else {
                throw .invalidValue(property: "State", value: state)
            }
            var bluetooth: BluetoothDeviceIdentifier?
            if !bluetoothAddress.isEmpty {
                guard let address = BluetoothAddress(bluetoothAddress) else {
                    throw .invalidValue(property: "BluetoothAddress", value: bluetoothAddress)
                }
                guard let type = BluetoothAddressType.allNamed.first(where: { "\($0)" == bluetoothAddressType }) else {
                    throw .invalidValue(property: "BluetoothAddressType", value: bluetoothAddressType)
                }
                bluetooth = BluetoothDeviceIdentifier(address: address, addressType: type)
            }
            var ssid: SSID?
            if !self.ssid.isEmpty {
                guard let value = SSID(bytes: self.ssid) else {
                    throw .invalidValue(property: "SSID", value: hexString(self.ssid))
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

    /// Reads the `a{sv}` that `message` holds next.
    static func read(_ message: BusMessage) throws(BusError) -> Values {
        var values = Values()
        try message.readArray("{sv}") { () throws(BusError) in
            try message.readContainer("e", "sv") { () throws(BusError) in
                let name = try message.readString()
                func variant<T>(_ signature: String, _ read: () throws(BusError) -> T) throws(BusError) -> T {
                    var value: T?
                    do {
                        try message.readContainer("v", signature) { () throws(BusError) in value = try read() }
                    } catch {
                        throw .invalidArguments("property \(name) is not of type \(signature)")
                    }
                    guard let value else { throw .invalidArguments("property \(name) is empty") }
                    return value
                }
                switch name {
                case "DisplayName": values.displayName = try variant("s", message.readString)
                case "State": values.state = try variant("s", message.readString)
                case "BluetoothAddress": values.bluetoothAddress = try variant("s", message.readString)
                case "BluetoothAddressType": values.bluetoothAddressType = try variant("s", message.readString)
                case "SSID": values.ssid = try variant("ay", message.readBytes)
                case "Descriptor":
                    values.descriptor = try variant("a{ss}") { () throws(BusError) in
                        try message.readStringPairs().map { BusVariant.Pair($0.key, $0.value) }
                    }
                case "BridgingIdentifier": values.bridgingIdentifier = try variant("s", message.readString)
                case "Present": values.present = try variant("b", message.readBool)
                case "RSSI": values.rssi = try variant("i", message.readInt32)
                default: message.skipRest()
                }
            }
        }
        return values
    }
}

extension BluetoothAddressType {
    /// Every address type, by the name the agent writes (`public`, `random`, …).
    static let allNamed: [BluetoothAddressType] = [.public, .random, .publicIdentity, .randomIdentity]
}
