/// A network block's id in wpa_supplicant's configuration (`ADD_NETWORK`'s reply,
/// the first column of `LIST_NETWORKS`).
public struct WPANetworkID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// Nil for a negative id.
    public init?(_ rawValue: Int) {
        guard rawValue >= 0 else { return nil }
        self.rawValue = rawValue
    }

    /// Decimal digits only, as wpa_supplicant writes them; nil otherwise or on overflow.
    public init?(text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = Int(text)
        else { return nil }
        self.rawValue = value
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
