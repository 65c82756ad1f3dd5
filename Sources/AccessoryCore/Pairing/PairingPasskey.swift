/// Six decimal digits, 000000 to 999999: a passkey to show or enter, or the
/// number numeric comparison shows. Its description hides the value, so a
/// passkey never reaches the journal by accident; `digits` is for the person.
public struct PairingPasskey: Hashable, Sendable, CustomStringConvertible {
    public static let maximum: UInt32 = 999_999

    public let value: UInt32

    /// Nil above 999999: the back ends pass a 32-bit number.
    public init?(_ value: UInt32) {
        guard value <= Self.maximum else { return nil }
        self.value = value
    }

    /// Exactly six ASCII digits, as the person reads them (leading zeros included).
    public init?(text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        value = bytes.reduce(0) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) }
    }

    /// The six digits with leading zeros, to show the person.
    public var digits: String {
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    public var description: String { "(six digits)" }
}
