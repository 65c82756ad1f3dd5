import AccessoryPlatform

/// `(ussasuasi)`, a `ListRequests` row: number, app, kind (`picker`,
/// `migration`), item names, candidate count, each item's product image path
/// ("" for none), and the seconds until discovery gives up (-1: it does not).
public struct WireRequestRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .string, .string, .strings, .uint32, .strings, .int32)
    public static let pickerKind = "picker"
    public static let migrationKind = "migration"
    public static let noDeadline: Int32 = -1

    public var number: UInt32
    public var app: String
    public var kind: String
    public var items: [String]
    public var candidateCount: UInt32
    public var images: [String]
    public var secondsLeft: Int32

    public init(number: UInt32, app: String, kind: String, items: [String], candidateCount: UInt32,
                images: [String] = [], secondsLeft: Int32 = WireRequestRow.noDeadline) {
        self.number = number
        self.app = app
        self.kind = kind
        self.items = items
        self.candidateCount = candidateCount
        self.images = images
        self.secondsLeft = secondsLeft
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        number = try reader.uint32()
        app = try reader.string("an app")
        kind = try reader.string("a request's kind")
        items = try reader.strings("item names")
        candidateCount = try reader.uint32()
        images = try reader.strings("product image paths")
        secondsLeft = try reader.int32()
    }

    public func appendFields(to message: BusReply) {
        message.append(number).append(app).append(kind).append(strings: items).append(candidateCount)
            .append(strings: images).append(secondsLeft)
    }
}

/// `(ussssis)`, a `ListCandidates` row: candidate number, item name, device
/// name, kind (`bluetooth`, `wifi`), identity (address or SSID), RSSI
/// (`BusRSSI`), product image path ("" for none).
public struct WireCandidateRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .string, .string, .string, .string, .int32, .string)

    public var number: UInt32
    public var item: String
    public var name: String
    public var kind: String
    public var identity: String
    public var rssi: Int32
    public var image: String

    public init(number: UInt32, item: String, name: String, kind: String, identity: String, rssi: Int32, image: String = "") {
        self.number = number
        self.item = item
        self.name = name
        self.kind = kind
        self.identity = identity
        self.rssi = rssi
        self.image = image
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        number = try reader.uint32()
        item = try reader.string("an item name")
        name = try reader.string("a device name")
        kind = try reader.string("a kind")
        identity = try reader.string("an identity")
        rssi = try reader.int32()
        image = try reader.string("a product image path")
    }

    public func appendFields(to message: BusReply) {
        message.append(number).append(item).append(name).append(kind).append(identity).append(rssi).append(image)
    }
}

/// `(sssss)`, a `ListAccessories` row: id, app, name, state, identity.
public struct WireAccessoryRow: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.string, .string, .string, .string, .string, .boolean, .int32)

    public var id: String
    public var app: String
    public var name: String
    public var state: String
    public var identity: String
    public var present: Bool
    /// Whole seconds since it was last heard; -1: not heard since accessoryd started.
    public var secondsSinceHeard: Int32

    public init(id: String, app: String, name: String, state: String, identity: String, present: Bool, secondsSinceHeard: Int32) {
        self.id = id
        self.app = app
        self.name = name
        self.state = state
        self.identity = identity
        self.present = present
        self.secondsSinceHeard = secondsSinceHeard
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        id = try reader.string("an accessory id")
        app = try reader.string("an app")
        name = try reader.string("a name")
        state = try reader.string("a state")
        identity = try reader.string("an identity")
        present = try reader.boolean()
        secondsSinceHeard = try reader.int32()
    }

    public func appendFields(to message: BusReply) {
        message.append(id).append(app).append(name).append(state).append(identity).append(present).append(secondsSinceHeard)
    }
}
