/// The long-term key that encrypts links to a bonded accessory, with what
/// decides how it is used: EDIV and Rand identify a legacy pairing's key to
/// the accessory (both zero under LE Secure Connections), the key size is what
/// pairing agreed (7 to 16 octets), and whether the pairing was authenticated
/// (MITM-protected) sets the security level a channel may ask for.
public struct LongTermKey: Hashable, Sendable {
    public var key: SecurityKey
    public var ediv: UInt16
    public var rand: UInt64
    public var keySize: UInt8
    public var authenticated: Bool
    public var secureConnections: Bool

    /// The sizes pairing may agree (Core Spec Vol 3 Part H §3.5.1).
    public static let keySizes: ClosedRange<UInt8> = 7...16

    public init(key: SecurityKey, ediv: UInt16 = 0, rand: UInt64 = 0, keySize: UInt8 = 16,
                authenticated: Bool, secureConnections: Bool) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
    }
}
