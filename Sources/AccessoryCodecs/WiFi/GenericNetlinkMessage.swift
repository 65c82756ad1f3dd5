/// A generic netlink message: nlmsghdr, then struct genlmsghdr (command, version,
/// two reserved bytes), then the family's attributes.
public struct GenericNetlinkMessage: Hashable, Sendable {
    public static let genericHeaderLength = 4

    public let header: NetlinkMessageHeader
    public let command: UInt8
    public let version: UInt8
    public let attributes: NetlinkAttributes

    public init(_ message: NetlinkMessage) throws(NetlinkDecodingError) {
        var reader = WiFiByteReader(message.payload)
        guard let command = reader.readUInt8(), let version = reader.readUInt8(),
            reader.take(2) != nil
        else { throw .genericHeaderTruncated(available: message.payload.count) }
        header = message.header
        self.command = command
        self.version = version
        attributes = try NetlinkAttributes(parsing: reader.takeRest())
    }

    /// Parses one whole message (nlmsghdr included).
    public init(parsing bytes: [UInt8]) throws(NetlinkDecodingError) {
        try self.init(NetlinkMessage(parsing: bytes))
    }

    /// Builds a message's bytes: nlmsghdr (length filled in), genlmsghdr, attributes.
    public static func encode(
        familyID: UInt16, flags: UInt16, sequence: UInt32, portID: UInt32 = 0,
        command: UInt8, version: UInt8 = 1, attributes: [UInt8]
    ) throws(NetlinkEncodingError) -> [UInt8] {
        let length = NetlinkMessageHeader.length + genericHeaderLength + attributes.count
        guard length <= Int(UInt32.max) else { throw .messageTooLong(length: length) }
        let header = NetlinkMessageHeader(
            length: UInt32(length), type: familyID, flags: flags, sequence: sequence, portID: portID)
        return header.encoded + [command, version, 0, 0] + attributes
    }
}
