/// A 128-bit key the Security Manager distributes (an IRK, an LTK, a CSRK),
/// most significant octet first. A secret: its description never shows the
/// key, so a log line or an error that interpolates one leaks nothing.
public struct SecurityKey: Hashable, Sendable, CustomStringConvertible {
    public var value: AES128Block

    public init(_ value: AES128Block) { self.value = value }

    /// From 32 hex digits, most significant octet first (as the Core Specification prints keys).
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 32, let octets = bytes(fromHex: hex), let value = AES128Block(octets: octets) else {
            return nil
        }
        self.value = value
    }

    /// 32 lowercase hex digits, most significant octet first: for the key store's file only.
    public var hex: String { hexString(value.octets) }

    public var description: String { "<128-bit key>" }
}
