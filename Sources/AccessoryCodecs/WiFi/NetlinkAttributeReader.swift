/// Walks a run of netlink attributes one at a time, checking every length.
///
/// A cursor rather than a `Sequence` because each step can fail with a named
/// error. Trailing bytes shorter than an nlattr header are an error: the kernel
/// only ever emits whole, aligned attributes.
public struct NetlinkAttributeReader: Sendable {
    private var reader: WiFiByteReader

    public init(_ bytes: ArraySlice<UInt8>) { reader = WiFiByteReader(bytes) }
    public init(_ bytes: [UInt8]) { reader = WiFiByteReader(bytes) }

    /// The next attribute, or nil at the end of the buffer.
    public mutating func next() throws(NetlinkDecodingError) -> NetlinkAttribute? {
        if reader.isAtEnd { return nil }
        let offset = reader.offset
        let available = reader.remaining
        guard available >= NetlinkAttribute.headerLength,
            let length = reader.readUInt16HostOrder(),
            let rawType = reader.readUInt16HostOrder()
        else { throw .attributeHeaderTruncated(offset: offset, available: available) }
        guard Int(length) >= NetlinkAttribute.headerLength else {
            throw .attributeLengthTooShort(offset: offset, length: length)
        }
        guard let payload = reader.take(Int(length) - NetlinkAttribute.headerLength) else {
            throw .attributeLengthPastEnd(offset: offset, length: length, available: available)
        }
        // The last attribute's padding may be missing (nla_ok accepts that); skip what is there.
        reader.skip(upTo: NetlinkAttribute.alignedLength(Int(length)) - Int(length))
        return NetlinkAttribute(
            type: rawType, payload: payload,
            isNested: rawType & NetlinkAttribute.nestedFlag != 0,
            isNetworkByteOrder: rawType & NetlinkAttribute.networkByteOrderFlag != 0)
    }
}
