/// An IPv4 address, as a hotspot's DHCP server hands one to the gateway.
public struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    public let octets: (UInt8, UInt8, UInt8, UInt8)

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { octets = (a, b, c, d) }

    /// Dotted decimal, exactly four parts of 0–255 without leading zeros; nil otherwise.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var values: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                part.utf8.count == 1 || part.utf8.first != 0x30, let value = UInt8(part)
            else { return nil }
            values.append(value)
        }
        octets = (values[0], values[1], values[2], values[3])
    }

    public var description: String { "\(octets.0).\(octets.1).\(octets.2).\(octets.3)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.octets == rhs.octets }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(octets.0); hasher.combine(octets.1); hasher.combine(octets.2); hasher.combine(octets.3)
    }
}
