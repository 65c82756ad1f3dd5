/// The LE subevents the controller may send (LE Set Event Mask, 0x2001):
/// bit n-1 enables subevent n (Core Spec Vol 4 Part E §7.8.1).
public struct LEEventMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The mask for one LE Meta subevent code (1...64); empty for codes out of range.
    public init(subevent code: UInt8) {
        rawValue = (1...64).contains(code) ? 1 << UInt64(code - 1) : 0
    }

    public static let connectionComplete = LEEventMask(subevent: 0x01)
    public static let advertisingReport = LEEventMask(subevent: 0x02)
    public static let connectionUpdateComplete = LEEventMask(subevent: 0x03)
    public static let readRemoteFeaturesComplete = LEEventMask(subevent: 0x04)
    public static let longTermKeyRequest = LEEventMask(subevent: 0x05)
    public static let enhancedConnectionComplete = LEEventMask(subevent: 0x0A)
    public static let directedAdvertisingReport = LEEventMask(subevent: 0x0B)
    public static let phyUpdateComplete = LEEventMask(subevent: 0x0C)
    public static let extendedAdvertisingReport = LEEventMask(subevent: 0x0D)
    public static let scanTimeout = LEEventMask(subevent: 0x11)

    /// What a controller enables after reset (0x000000000000001F).
    public static let controllerDefault: LEEventMask = [
        .connectionComplete, .advertisingReport, .connectionUpdateComplete,
        .readRemoteFeaturesComplete, .longTermKeyRequest,
    ]
}
