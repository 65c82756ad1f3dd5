import AccessoryPlatform

/// `(sa{ss})`, a `TakeEvents` entry: the event type (`accessoryAdded`) and its details.
public struct WireQueuedEvent: WireRecord {
    public static let type = BusType.structure(.string, .pairs)

    public var type: String
    public var details: [(key: String, value: String)]

    public init(type: String, details: [(key: String, value: String)]) {
        self.type = type
        self.details = details
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        type = try reader.string("an event type")
        details = try reader.pairs("an event's details")
    }

    public func appendFields(to message: BusReply) {
        message.append(type).append(pairs: details)
    }
}
