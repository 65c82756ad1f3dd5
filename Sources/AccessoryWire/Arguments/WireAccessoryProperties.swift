import AccessoryPlatform

/// An `org.accessoryagent.Accessory1` object's properties as they travel in
/// an `a{sv}` (`GetAll`, `GetManagedObjects`, `InterfacesAdded`): written by
/// the daemon from a grant, read by the client library. Properties a reader
/// does not know are skipped, so a newer agent may add some; a known one with
/// the wrong type is an error.
public struct WireAccessoryProperties: Hashable, Sendable {
    public var displayName = ""
    public var state = ""
    public var app = ""
    public var bluetoothAddress = ""
    public var bluetoothAddressType = ""
    public var ssid: [UInt8] = []
    public var descriptor: [BusVariant.Pair] = []
    public var bridgingIdentifier = ""
    /// Optional when read: `PropertiesChanged` may carry only some.
    public var present: Bool?
    public var rssi: Int32?

    public init() {}

    /// Every property, in the order `Accessory1` declares them.
    public var variants: [(String, BusVariant)] {
        [
            (Accessory1.displayName.name, .string(displayName)),
            (Accessory1.state.name, .string(state)),
            (Accessory1.app.name, .string(app)),
            (Accessory1.bluetoothAddress.name, .string(bluetoothAddress)),
            (Accessory1.bluetoothAddressType.name, .string(bluetoothAddressType)),
            (Accessory1.ssid.name, .bytes(ssid)),
            (Accessory1.descriptor.name, .pairs(descriptor)),
            (Accessory1.bridgingIdentifier.name, .string(bridgingIdentifier)),
            (Accessory1.present.name, .bool(present ?? false)),
            (Accessory1.rssi.name, .int32(rssi ?? BusRSSI.unknown)),
        ]
    }

    /// Reads the `a{sv}` that `message` holds next.
    public static func read(_ message: BusMessage) throws(BusError) -> WireAccessoryProperties {
        var values = WireAccessoryProperties()
        try message.readArray(BusType.properties.element.signature) { () throws(BusError) in
            try message.readContainer("e", BusType.properties.element.contents) { () throws(BusError) in
                let name = try message.readString()
                func variant<T>(_ type: BusType, _ read: () throws(BusError) -> T) throws(BusError) -> T {
                    var value: T?
                    do {
                        try message.readContainer("v", type.signature) { () throws(BusError) in value = try read() }
                    } catch {
                        throw .invalidArguments("property \(name) is not of type \(type)")
                    }
                    guard let value else { throw .invalidArguments("property \(name) is empty") }
                    return value
                }
                switch name {
                case Accessory1.displayName.name: values.displayName = try variant(Accessory1.displayName.type, message.readString)
                case Accessory1.state.name: values.state = try variant(Accessory1.state.type, message.readString)
                case Accessory1.app.name: values.app = try variant(Accessory1.app.type, message.readString)
                case Accessory1.bluetoothAddress.name:
                    values.bluetoothAddress = try variant(Accessory1.bluetoothAddress.type, message.readString)
                case Accessory1.bluetoothAddressType.name:
                    values.bluetoothAddressType = try variant(Accessory1.bluetoothAddressType.type, message.readString)
                case Accessory1.ssid.name: values.ssid = try variant(Accessory1.ssid.type, message.readBytes)
                case Accessory1.descriptor.name:
                    values.descriptor = try variant(Accessory1.descriptor.type) { () throws(BusError) in
                        try message.readStringPairs().map { BusVariant.Pair($0.key, $0.value) }
                    }
                case Accessory1.bridgingIdentifier.name:
                    values.bridgingIdentifier = try variant(Accessory1.bridgingIdentifier.type, message.readString)
                case Accessory1.present.name: values.present = try variant(Accessory1.present.type, message.readBool)
                case Accessory1.rssi.name: values.rssi = try variant(Accessory1.rssi.type, message.readInt32)
                default: message.skipRest()
                }
            }
        }
        return values
    }
}

extension BusReply {
    /// An `a{sv}` of properties.
    @discardableResult
    public func append(properties values: [(String, BusVariant)]) -> Self {
        container("a", BusType.properties.element.signature) { array in
            for (name, value) in values {
                array.container("e", BusType.properties.element.contents) { $0.append(name).append(variant: value) }
            }
        }
    }
}
