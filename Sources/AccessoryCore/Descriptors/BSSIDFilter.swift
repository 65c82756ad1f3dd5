/// A BSSID with a mask (Android's `WifiDeviceFilter.setBssid(_:mask:)`): a BSS
/// matches when its BSSID ANDed with the mask equals the filter's BSSID ANDed
/// with the mask, so `AA:BB:CC:00:00:00/FF:FF:FF:00:00:00` matches one vendor's OUI.
public struct BSSIDFilter: Hashable, Sendable, CustomStringConvertible {
    public var bssid: BSSID
    public var mask: BSSID

    /// A mask of all ones (the default) matches that one BSSID only.
    public init(bssid: BSSID, mask: BSSID = BSSID(rawValue: 0xFFFF_FFFF_FFFF)!) {
        self.bssid = bssid
        self.mask = mask
    }

    public func matches(_ other: BSSID) -> Bool {
        other.rawValue & mask.rawValue == bssid.rawValue & mask.rawValue
    }

    public var description: String { "\(bssid)/\(mask)" }
}
