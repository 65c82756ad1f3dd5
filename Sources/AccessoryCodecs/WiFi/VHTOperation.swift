/// The VHT Operation element (id 192, IEEE 802.11-2020 §9.4.2.158): the channel
/// width and center frequency segments of an 80/160 MHz (5 GHz) BSS.
public struct VHTOperation: Hashable, Sendable {
    public static let length = 5

    /// 0: 20 or 40 MHz (see HT Operation); 1: 80, 160 or 80+80 MHz; 2, 3: deprecated 160 / 80+80.
    public var channelWidth: UInt8
    public var centerFrequencySegment0: UInt8
    public var centerFrequencySegment1: UInt8

    public init(parsing body: ArraySlice<UInt8>) throws(IEParsingError) {
        var reader = WiFiByteReader(body)
        guard body.count >= Self.length, let width = reader.readUInt8(),
            let segment0 = reader.readUInt8(), let segment1 = reader.readUInt8()
        else { throw .vhtOperationTooShort(length: body.count) }
        channelWidth = width
        centerFrequencySegment0 = segment0
        centerFrequencySegment1 = segment1
    }
}
