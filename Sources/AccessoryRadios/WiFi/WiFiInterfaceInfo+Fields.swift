import AccessoryCore
import AccessoryPlatform

extension WiFiInterfaceInfo {
    /// From fields already decoded (an nl80211 NEW_INTERFACE event, a test).
    public init(name: String, index: UInt32, phy: UInt32, address: HardwareAddress?, type: UInt32?) {
        self.name = name
        self.index = index
        self.phy = phy
        self.address = address
        self.type = type
    }

    /// NL80211_IFTYPE_STATION: the only kind discovery scans on unless told otherwise.
    public static let stationType: UInt32 = 2

    /// A station (managed) interface; an unknown type counts as one.
    public var isStation: Bool { type == nil || type == Self.stationType }
}
