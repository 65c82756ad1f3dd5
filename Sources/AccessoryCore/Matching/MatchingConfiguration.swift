/// Settings the matching index applies to every descriptor.
public struct MatchingConfiguration: Hashable, Sendable {
    /// The RSSI, in dBm, at or above which a device counts as in `.immediate`
    /// range. -50 dBm is roughly "within arm's reach" for a 0 dBm advertiser.
    public var immediateRSSIThreshold: Int

    public init(immediateRSSIThreshold: Int = -50) {
        self.immediateRSSIThreshold = immediateRSSIThreshold
    }
}
