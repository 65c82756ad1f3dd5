/// One 802.11 information element (IEEE 802.11-2020 §9.4.2.1): a one-byte id,
/// a one-byte length, then that many bytes of body.
public struct InformationElement: Hashable, Sendable {
    public let id: UInt8
    public let body: ArraySlice<UInt8>

    public init(id: UInt8, body: ArraySlice<UInt8>) {
        self.id = id
        self.body = body
    }

    /// The element ids this package interprets (Table 9-92).
    public enum ID {
        public static let ssid: UInt8 = 0
        public static let supportedRates: UInt8 = 1
        public static let dsParameterSet: UInt8 = 3
        public static let rsn: UInt8 = 48
        public static let extendedSupportedRates: UInt8 = 50
        public static let htOperation: UInt8 = 61
        public static let vhtOperation: UInt8 = 192
        public static let vendorSpecific: UInt8 = 221
        /// Element id extension: the first body byte says which element it is.
        public static let elementIDExtension: UInt8 = 255
    }

    /// Extension ids, carried in the first body byte of element 255.
    public enum ExtensionID {
        public static let heOperation: UInt8 = 36
    }
}
