/// Who an app is to the agent: the `Name=` of its manifest (and the manifest's
/// file name), e.g. `acme-sensor-logger`. Every match, grant and event carries one.
public struct AppID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// Whether `text` is acceptable as an app name: 1 to 64 of `a-z 0-9 . _ -`,
    /// starting with a letter or digit, so it is safe in a file name, a D-Bus
    /// object path (after escaping) and a journal field.
    public static func isValid(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
    }

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
