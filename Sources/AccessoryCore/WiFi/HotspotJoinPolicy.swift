/// The bounds of one join. Every outcome is reached by `timeout` after the start
/// at the latest; the thresholds let a hotspot that has just come up, or one
/// rejection in passing, be retried by wpa_supplicant before giving up.
public struct HotspotJoinPolicy: Hashable, Sendable {
    /// From selecting the network to an address on the interface.
    public var timeout: Duration
    /// Scans without the SSID before `networkNotFound`.
    public var notFoundScans: Int
    /// Association rejections before `associationRejected`.
    public var rejections: Int

    public init(timeout: Duration = .seconds(40), notFoundScans: Int = 2, rejections: Int = 2) {
        self.timeout = timeout
        self.notFoundScans = max(1, notFoundScans)
        self.rejections = max(1, rejections)
    }
}
