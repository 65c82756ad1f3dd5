import AccessoryPlatform

/// Which cap bounds an array an app sends: the daemon's reader checks it
/// against the app limits; a client reading the daemon's replies checks none.
public enum ArrayBound: Hashable, Sendable {
    case displayItems
    case migrationItems
    /// Entries of a dictionary or words of a list.
    case dictionaryEntries
    /// Not bounded by a count (the daemon's own replies).
    case none
}

/// Reads a message's arguments in signature order. The readers of the
/// structured arguments read through this, so one decoder serves the daemon
/// (whose reader counts every string and element against the app limits and
/// stops at the first one over: `LimitedArguments`) and the clients
/// (`PlainArguments`, which trusts the daemon's replies to be bounded).
public protocol ArgumentReader {
    var message: BusMessage { get }
    /// A string; `what` names it in a refusal.
    func string(_ what: String) throws(BusError) -> String
    /// An `as`.
    func strings(_ what: String) throws(BusError) -> [String]
    /// An `a{ss}`, in the order sent; a key sent twice is an error.
    func pairs(_ what: String) throws(BusError) -> [(key: String, value: String)]
    /// An array of `element`, calling `body` once per element (which reads its fields).
    func array(_ element: BusType, bound: ArrayBound, _ what: String, _ body: () throws(BusError) -> Void) throws(BusError)
}

extension ArgumentReader {
    public func uint32() throws(BusError) -> UInt32 { try message.readUInt32() }
    public func int32() throws(BusError) -> Int32 { try message.readInt32() }
    public func uint16() throws(BusError) -> UInt16 { try message.readUInt16() }
    public func boolean() throws(BusError) -> Bool { try message.readBool() }
    public func objectPath() throws(BusError) -> String { try message.readObjectPath() }
    public func bytes() throws(BusError) -> [UInt8] { try message.readBytes() }

    /// A struct or dict entry of `type`, its fields read by `body`.
    public func container(_ type: BusType, _ body: () throws(BusError) -> Void) throws(BusError) {
        try message.readContainer(type.containerCode, type.contents, body)
    }

    /// An array of records.
    public func records<Record: WireRecord>(
        of _: Record.Type, bound: ArrayBound = .none, _ what: String
    ) throws(BusError) -> [Record] {
        var records: [Record] = []
        try array(Record.type, bound: bound, what) { () throws(BusError) in
            try container(Record.type) { () throws(BusError) in records.append(try Record(from: self)) }
        }
        return records
    }
}

/// Reads without limits: a client reading what the daemon answered.
public struct PlainArguments: ArgumentReader {
    public let message: BusMessage

    public init(_ message: BusMessage) { self.message = message }

    public func string(_ what: String) throws(BusError) -> String { try message.readString() }
    public func strings(_ what: String) throws(BusError) -> [String] { try message.readStrings() }
    public func pairs(_ what: String) throws(BusError) -> [(key: String, value: String)] { try message.readStringPairs() }
    public func array(_ element: BusType, bound: ArrayBound, _ what: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        try message.readArray(element.signature, body)
    }
}

/// A structured argument (a struct on the wire), read and written field by
/// field in its signature's order, by both sides of the bus.
public protocol WireRecord {
    /// The struct's type: `(ssa{ss}asas)`.
    static var type: BusType { get }
    /// Reads the fields, inside the struct.
    init(from reader: some ArgumentReader) throws(BusError)
    /// Appends the fields, inside the struct.
    func appendFields(to message: BusReply)
}

extension BusReply {
    /// An array of records, `a(…)`.
    @discardableResult
    public func append<Record: WireRecord>(records: [Record]) -> Self {
        container("a", Record.type.signature) { array in
            for record in records { array.container(Record.type.containerCode, Record.type.contents) { record.appendFields(to: $0) } }
        }
    }
}
