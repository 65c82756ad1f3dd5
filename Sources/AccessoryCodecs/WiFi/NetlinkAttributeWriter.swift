/// Builds a run of netlink attributes: header, payload, zero padding to 4 bytes.
/// For requests and for test fixtures built from named fields.
public struct NetlinkAttributeWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func append(
        type: UInt16, payload: some Collection<UInt8>, nested: Bool = false
    ) throws(NetlinkEncodingError) {
        guard type & ~NetlinkAttribute.typeMask == 0 else { throw .attributeTypeOutOfRange(type) }
        let length = NetlinkAttribute.headerLength + payload.count
        guard length <= Int(UInt16.max) else {
            throw .attributeTooLong(type: type, payloadLength: payload.count)
        }
        let flaggedType = nested ? type | NetlinkAttribute.nestedFlag : type
        bytes += WiFiByteReader.hostOrderBytes(UInt16(length))
        bytes += WiFiByteReader.hostOrderBytes(flaggedType)
        bytes += payload
        bytes += repeatElement(0, count: NetlinkAttribute.alignedLength(length) - length)
    }

    public mutating func append(type: UInt16, uint8 value: UInt8) throws(NetlinkEncodingError) {
        try append(type: type, payload: [value])
    }

    public mutating func append(type: UInt16, uint16 value: UInt16) throws(NetlinkEncodingError) {
        try append(type: type, payload: WiFiByteReader.hostOrderBytes(value))
    }

    public mutating func append(type: UInt16, uint32 value: UInt32) throws(NetlinkEncodingError) {
        try append(type: type, payload: WiFiByteReader.hostOrderBytes(value))
    }

    public mutating func append(type: UInt16, int32 value: Int32) throws(NetlinkEncodingError) {
        try append(type: type, uint32: UInt32(bitPattern: value))
    }

    public mutating func append(type: UInt16, uint64 value: UInt64) throws(NetlinkEncodingError) {
        try append(type: type, payload: WiFiByteReader.hostOrderBytes(value))
    }

    /// A nested attribute (NLA_F_NESTED set) whose payload `build` writes.
    public mutating func appendNested(
        type: UInt16, _ build: (inout NetlinkAttributeWriter) throws(NetlinkEncodingError) -> Void
    ) throws(NetlinkEncodingError) {
        var inner = NetlinkAttributeWriter()
        try build(&inner)
        try append(type: type, payload: inner.bytes, nested: true)
    }
}
