import AccessoryPlatform

/// `(sssa{ss})`, a `Migrate` item: name, Bluetooth address (`…/random` for
/// a random one; empty for none), SSID (empty for none), descriptor.
public struct WireMigrationItem: WireRecord {
    public static let type = BusType.structure(.string, .string, .string, .pairs)

    public var name: String
    public var bluetoothAddress: String
    public var ssid: String
    public var descriptor: [(key: String, value: String)]

    public init(name: String, bluetoothAddress: String, ssid: String, descriptor: [(key: String, value: String)]) {
        self.name = name
        self.bluetoothAddress = bluetoothAddress
        self.ssid = ssid
        self.descriptor = descriptor
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        name = try reader.string("a migration item's name")
        bluetoothAddress = try reader.string("a Bluetooth address")
        ssid = try reader.string("an SSID")
        descriptor = try reader.pairs("a descriptor")
    }

    public func appendFields(to message: BusReply) {
        message.append(name).append(bluetoothAddress).append(ssid).append(pairs: descriptor)
    }
}
