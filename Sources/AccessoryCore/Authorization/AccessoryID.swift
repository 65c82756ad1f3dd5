/// The agent's stable name for an authorized accessory, the same across
/// restarts; on the bus it is part of the accessory's object path.
public struct AccessoryID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// From the 16 hex digits `description` prints.
    public init?(_ text: some StringProtocol) {
        guard text.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        rawValue = value
    }

    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
