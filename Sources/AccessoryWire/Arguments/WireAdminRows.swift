import AccessoryPlatform

/// `(ussasu)`, a `ListRequests` row: number, app, kind (`picker`,
/// `migration`), item names, candidate count.
public struct WireRequestRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .string, .string, .strings, .uint32)
    public static let pickerKind = "picker"
    public static let migrationKind = "migration"

    public var number: UInt32
    public var app: String
    public var kind: String
    public var items: [String]
    public var candidateCount: UInt32

    public init(number: UInt32, app: String, kind: String, items: [String], candidateCount: UInt32) {
        self.number = number
        self.app = app
        self.kind = kind
        self.items = items
        self.candidateCount = candidateCount
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        number = try reader.uint32()
        app = try reader.string("an app")
        kind = try reader.string("a request's kind")
        items = try reader.strings("item names")
        candidateCount = try reader.uint32()
    }

    public func appendFields(to message: BusReply) {
        message.append(number).append(app).append(kind).append(strings: items).append(candidateCount)
    }
}

/// `(ussssi)`, a `ListCandidates` row: candidate number, item name, device
/// name, kind (`bluetooth`, `wifi`), identity (address or SSID), RSSI (`BusRSSI`).
public struct WireCandidateRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .string, .string, .string, .string, .int32)

    public var number: UInt32
    public var item: String
    public var name: String
    public var kind: String
    public var identity: String
    public var rssi: Int32

    public init(number: UInt32, item: String, name: String, kind: String, identity: String, rssi: Int32) {
        self.number = number
        self.item = item
        self.name = name
        self.kind = kind
        self.identity = identity
        self.rssi = rssi
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        number = try reader.uint32()
        item = try reader.string("an item name")
        name = try reader.string("a device name")
        kind = try reader.string("a kind")
        identity = try reader.string("an identity")
        rssi = try reader.int32()
    }

    public func appendFields(to message: BusReply) {
        message.append(number).append(item).append(name).append(kind).append(identity).append(rssi)
    }
}

/// `(sssss)`, a `ListAccessories` row: id, app, name, state, identity.
public struct WireAccessoryRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.string, .string, .string, .string, .string)

    public var id: String
    public var app: String
    public var name: String
    public var state: String
    public var identity: String

    public init(id: String, app: String, name: String, state: String, identity: String) {
        self.id = id
        self.app = app
        self.name = name
        self.state = state
        self.identity = identity
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        id = try reader.string("an accessory id")
        app = try reader.string("an app")
        name = try reader.string("a name")
        state = try reader.string("a state")
        identity = try reader.string("an identity")
    }

    public func appendFields(to message: BusReply) {
        message.append(id).append(app).append(name).append(state).append(identity)
    }
}
