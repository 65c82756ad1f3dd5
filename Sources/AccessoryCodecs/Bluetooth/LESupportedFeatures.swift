/// Return parameters of LE Read Local Supported Features (0x2003): the
/// controller's LE feature bits (Core Spec Vol 6 Part B §4.6).
public struct LESupportedFeatures: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let encryption = LESupportedFeatures(rawValue: 1 << 0)
    public static let connectionParametersRequest = LESupportedFeatures(rawValue: 1 << 1)
    public static let extendedRejectIndication = LESupportedFeatures(rawValue: 1 << 2)
    public static let peripheralInitiatedFeaturesExchange = LESupportedFeatures(rawValue: 1 << 3)
    public static let ping = LESupportedFeatures(rawValue: 1 << 4)
    public static let dataPacketLengthExtension = LESupportedFeatures(rawValue: 1 << 5)
    public static let llPrivacy = LESupportedFeatures(rawValue: 1 << 6)
    public static let extendedScanFilterPolicies = LESupportedFeatures(rawValue: 1 << 7)
    public static let le2MPHY = LESupportedFeatures(rawValue: 1 << 8)
    public static let leCodedPHY = LESupportedFeatures(rawValue: 1 << 11)
    public static let extendedAdvertising = LESupportedFeatures(rawValue: 1 << 12)
    public static let periodicAdvertising = LESupportedFeatures(rawValue: 1 << 13)

    static let encodedLength = 8
}
