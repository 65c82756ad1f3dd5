import AccessoryPlatform

/// `AccessoryDiscovered(u candidate, s name, s identity, i rssi, ay advertisement)`'s arguments.
public struct WireDiscoveredAccessory: Hashable, Sendable {
    public var candidate: UInt32
    public var name: String
    public var identity: String
    /// `BusRSSI`: 127 when not known.
    public var rssi: Int32
    public var advertisement: [UInt8]

    public init(candidate: UInt32, name: String, identity: String, rssi: Int32, advertisement: [UInt8]) {
        self.candidate = candidate
        self.name = name
        self.identity = identity
        self.rssi = rssi
        self.advertisement = advertisement
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        candidate = try reader.uint32()
        name = try reader.string("a name")
        identity = try reader.string("an identity")
        rssi = try reader.int32()
        advertisement = try reader.bytes()
    }

    public func append(to message: BusReply) {
        message.append(candidate).append(name).append(identity).append(rssi).append(bytes: advertisement)
    }
}
