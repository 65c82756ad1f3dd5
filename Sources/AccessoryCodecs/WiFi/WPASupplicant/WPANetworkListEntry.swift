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

    /// The column is bracketed names, `[CURRENT][DISABLED]`; unknown names are skipped.
    /// Read token by token over the bytes (no string search: that would link the
    /// regex engine into the daemon for four fixed words).
    init(_ column: some Collection<UInt8>) {
        var flags: WPANetworkFlags = []
        var token: [UInt8]? = nil
        for byte in column {
            switch byte {
            case UInt8(ascii: "["): token = []
            case UInt8(ascii: "]"):
                if let name = token, let flag = Self.named[name] { flags.insert(flag) }
                token = nil
            default: token?.append(byte)
            }
        }
        self = flags
    }

    private static let named: [[UInt8]: WPANetworkFlags] = [
        Array("CURRENT".utf8): .current, Array("DISABLED".utf8): .disabled,
        Array("TEMP-DISABLED".utf8): .temporarilyDisabled, Array("P2P-PERSISTENT".utf8): .p2pPersistent,
    ]
}
