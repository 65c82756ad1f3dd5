/// How a descriptor's name substring is compared with the name heard
/// (the subset of `NSString.CompareOptions` that `bluetoothNameSubstringCompareOptions` uses).
public struct NameCompareOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Compare after Unicode lowercasing both sides.
    public static let caseInsensitive = NameCompareOptions(rawValue: 1 << 0)
    /// The substring must be at the start of the name (a prefix).
    public static let anchored = NameCompareOptions(rawValue: 1 << 1)
}
