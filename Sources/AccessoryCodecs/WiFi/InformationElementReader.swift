/// Walks a run of information elements, checking each length against the buffer.
/// A cursor rather than a `Sequence` because each step can fail with a named error.
public struct InformationElementReader: Sendable {
    private var reader: WiFiByteReader

    public init(_ bytes: ArraySlice<UInt8>) { reader = WiFiByteReader(bytes) }
    public init(_ bytes: [UInt8]) { reader = WiFiByteReader(bytes) }

    /// The next element, or nil at the end of the buffer.
    public mutating func next() throws(IEParsingError) -> InformationElement? {
        if reader.isAtEnd { return nil }
        let offset = reader.offset
        guard let id = reader.readUInt8(), let length = reader.readUInt8() else {
            throw .elementHeaderTruncated(offset: offset)
        }
        guard let body = reader.take(Int(length)) else {
            throw .elementLengthPastEnd(
                id: id, offset: offset, length: length, available: reader.remaining)
        }
        return InformationElement(id: id, body: body)
    }
}
