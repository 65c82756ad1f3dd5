/// The HT Operation element (id 61, IEEE 802.11-2020 §9.4.2.56), read only as far
/// as the channel: the primary channel and where a 40 MHz secondary channel sits.
public struct HTOperation: Hashable, Sendable {
    public static let length = 22

    public enum SecondaryChannelOffset: UInt8, Hashable, Sendable {
        case none = 0, above = 1, reserved = 2, below = 3
    }

    public var primaryChannel: UInt8
    public var secondaryChannelOffset: SecondaryChannelOffset
    /// STA Channel Width: true when the BSS may use a 40 MHz channel.
    public var allowsAnyChannelWidth: Bool

    public init(parsing body: ArraySlice<UInt8>) throws(IEParsingError) {
        var reader = WiFiByteReader(body)
        guard body.count >= Self.length, let primary = reader.readUInt8(),
            let information = reader.readUInt8()
        else { throw .htOperationTooShort(length: body.count) }
        primaryChannel = primary
        // Two bits can hold only 0…3, all of which are cases.
        secondaryChannelOffset = SecondaryChannelOffset(rawValue: information & 0x03) ?? .reserved
        allowsAnyChannelWidth = information & 0x04 != 0
    }
}
