/// struct nlmsghdr: the 16-byte header in front of every netlink message.
public struct NetlinkMessageHeader: Hashable, Sendable {
    public static let length = 16

    /// NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN; a generic netlink
    /// family's id (assigned at run time) otherwise.
    public enum MessageType {
        public static let noop: UInt16 = 1
        public static let error: UInt16 = 2
        public static let done: UInt16 = 3
        public static let overrun: UInt16 = 4
        /// NLMSG_MIN_TYPE: types below it are netlink's own control messages.
        public static let firstFamilyType: UInt16 = 0x10
    }

    public enum Flags {
        public static let request: UInt16 = 0x1
        public static let multipart: UInt16 = 0x2
        public static let acknowledge: UInt16 = 0x4
        public static let dump: UInt16 = 0x300
    }

    /// The whole message, header included.
    public var length: UInt32
    public var type: UInt16
    public var flags: UInt16
    public var sequence: UInt32
    public var portID: UInt32

    public init(length: UInt32, type: UInt16, flags: UInt16, sequence: UInt32, portID: UInt32) {
        self.length = length
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.portID = portID
    }

    var encoded: [UInt8] {
        WiFiByteReader.hostOrderBytes(length) + WiFiByteReader.hostOrderBytes(type)
            + WiFiByteReader.hostOrderBytes(flags) + WiFiByteReader.hostOrderBytes(sequence)
            + WiFiByteReader.hostOrderBytes(portID)
    }
}

/// One netlink message: its header and the payload after it (padding excluded).
public struct NetlinkMessage: Hashable, Sendable {
    public let header: NetlinkMessageHeader
    public let payload: ArraySlice<UInt8>

    /// Parses exactly one message at the start of `bytes`; trailing bytes are ignored
    /// (use `NetlinkMessageReader` for a datagram holding several).
    public init(parsing bytes: ArraySlice<UInt8>) throws(NetlinkDecodingError) {
        var reader = NetlinkMessageReader(bytes)
        guard let message = try reader.next() else {
            throw .messageHeaderTruncated(offset: 0, available: 0)
        }
        self = message
    }

    public init(parsing bytes: [UInt8]) throws(NetlinkDecodingError) {
        try self.init(parsing: bytes[...])
    }

    init(header: NetlinkMessageHeader, payload: ArraySlice<UInt8>) {
        self.header = header
        self.payload = payload
    }

    /// For NLMSG_ERROR: nil for an acknowledgement (error 0), the kernel's error otherwise.
    public func error() throws(NetlinkDecodingError) -> NetlinkDecodingError? {
        var reader = WiFiByteReader(payload)
        guard let raw = reader.readUInt32HostOrder() else {
            throw .errorMessageTruncated(available: payload.count)
        }
        let code = Int32(bitPattern: raw)
        return code == 0 ? nil : .kernelError(errno: code)
    }
}

/// Walks the messages of a netlink datagram (or of several datagrams written back
/// to back, as a capture file holds them). Each message starts 4-byte aligned.
public struct NetlinkMessageReader: Sendable {
    private var reader: WiFiByteReader

    public init(_ bytes: ArraySlice<UInt8>) { reader = WiFiByteReader(bytes) }
    public init(_ bytes: [UInt8]) { reader = WiFiByteReader(bytes) }

    public mutating func next() throws(NetlinkDecodingError) -> NetlinkMessage? {
        if reader.isAtEnd { return nil }
        let offset = reader.offset
        let available = reader.remaining
        guard available >= NetlinkMessageHeader.length,
            let length = reader.readUInt32HostOrder(),
            let type = reader.readUInt16HostOrder(),
            let flags = reader.readUInt16HostOrder(),
            let sequence = reader.readUInt32HostOrder(),
            let portID = reader.readUInt32HostOrder()
        else { throw .messageHeaderTruncated(offset: offset, available: available) }
        guard length >= UInt32(NetlinkMessageHeader.length) else {
            throw .messageLengthTooShort(offset: offset, length: length)
        }
        // Compared as UInt64 so that neither side can trap converting on a 32-bit host.
        guard UInt64(length) <= UInt64(available),
            let payload = reader.take(Int(length) - NetlinkMessageHeader.length)
        else { throw .messageLengthPastEnd(offset: offset, length: length, available: available) }
        reader.skip(upTo: NetlinkAttribute.alignedLength(Int(length)) - Int(length))
        let header = NetlinkMessageHeader(
            length: length, type: type, flags: flags, sequence: sequence, portID: portID)
        return NetlinkMessage(header: header, payload: payload)
    }
}
