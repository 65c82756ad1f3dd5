/// The HE Operation element (element 255, extension id 36, IEEE 802.11ax-2021
/// §9.4.2.249), read only as far as the channel: on 6 GHz, where there is no DS
/// Parameter Set or HT Operation, its 6 GHz Operation Information names the channel.
public struct HEOperation: Hashable, Sendable {
    public enum Field: String, Hashable, Sendable {
        case parameters, bssColor, basicMCSAndNSS, vhtOperationInformation
        case coHostedBSSIDIndicator, sixGHzOperationInformation
    }

    /// The 6 GHz Operation Information field.
    public struct SixGHzOperation: Hashable, Sendable {
        public var primaryChannel: UInt8
        /// 0: 20 MHz, 1: 40 MHz, 2: 80 MHz, 3: 160 or 80+80 MHz.
        public var channelWidth: UInt8
        public var centerFrequencySegment0: UInt8
        public var centerFrequencySegment1: UInt8
    }

    /// The 24-bit HE Operation Parameters.
    public var parameters: UInt32
    public var sixGHzOperation: SixGHzOperation?

    // Which optional fields follow, by bit in the HE Operation Parameters.
    static let vhtOperationInformationPresent: UInt32 = 1 << 14
    static let coHostedBSSPresent: UInt32 = 1 << 15
    static let sixGHzOperationInformationPresent: UInt32 = 1 << 17

    /// Parses the body after the extension id byte.
    public init(parsing body: ArraySlice<UInt8>) throws(IEParsingError) {
        var reader = WiFiByteReader(body)
        guard let parameterBytes = reader.take(3) else {
            throw .heOperationTruncated(field: .parameters)
        }
        parameters = WiFiByteReader.littleEndian(parameterBytes)
        guard reader.take(1) != nil else { throw .heOperationTruncated(field: .bssColor) }
        guard reader.take(2) != nil else { throw .heOperationTruncated(field: .basicMCSAndNSS) }
        if parameters & Self.vhtOperationInformationPresent != 0, reader.take(3) == nil {
            throw .heOperationTruncated(field: .vhtOperationInformation)
        }
        if parameters & Self.coHostedBSSPresent != 0, reader.take(1) == nil {
            throw .heOperationTruncated(field: .coHostedBSSIDIndicator)
        }
        if parameters & Self.sixGHzOperationInformationPresent != 0 {
            guard let info = reader.take(5) else {
                throw .heOperationTruncated(field: .sixGHzOperationInformation)
            }
            let octets = Array(info)
            sixGHzOperation = SixGHzOperation(
                primaryChannel: octets[0], channelWidth: octets[1] & 0x03,
                centerFrequencySegment0: octets[2], centerFrequencySegment1: octets[3])
        } else {
            sixGHzOperation = nil
        }
    }
}
