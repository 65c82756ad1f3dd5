import AccessoryCore

/// One network block as `LIST_NETWORKS` shows it.
public struct WPANetworkListEntry: Hashable, Sendable {
    public var id: WPANetworkID
    public var ssid: SSID
    public var flags: WPANetworkFlags

    public init(id: WPANetworkID, ssid: SSID, flags: WPANetworkFlags) {
        self.id = id
        self.ssid = ssid
        self.flags = flags
    }
}

/// The bracketed flags of a `LIST_NETWORKS` row: `[CURRENT]`, `[DISABLED]`,
/// `[TEMP-DISABLED]`, `[P2P-PERSISTENT]`; others are ignored.
public struct WPANetworkFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let current = WPANetworkFlags(rawValue: 1 << 0)
    public static let disabled = WPANetworkFlags(rawValue: 1 << 1)
    public static let temporarilyDisabled = WPANetworkFlags(rawValue: 1 << 2)
    public static let p2pPersistent = WPANetworkFlags(rawValue: 1 << 3)

    init(_ column: some Collection<UInt8>) {
        var flags: WPANetworkFlags = []
        let text = String(decoding: column, as: UTF8.self)
        for (name, flag) in [("[CURRENT]", Self.current), ("[DISABLED]", .disabled),
                             ("[TEMP-DISABLED]", .temporarilyDisabled), ("[P2P-PERSISTENT]", .p2pPersistent)]
        where text.contains(name) {
            flags.insert(flag)
        }
        self = flags
    }
}
