/// Return parameters of Read Local Supported Commands (0x1002): a 64-octet
/// bit field, one bit per command (Core Spec Vol 4 Part E §6.27).
public struct HCISupportedCommands: Hashable, Sendable {
    /// Where a command's bit sits in the field.
    public struct Position: Hashable, Sendable {
        public var octet: Int
        public var bit: Int
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }

        public static let readLocalVersionInformation = Position(octet: 14, bit: 3)
        public static let readLocalSupportedCommands = Position(octet: 14, bit: 4)
        public static let leSetEventMask = Position(octet: 25, bit: 0)
        public static let leReadLocalSupportedFeatures = Position(octet: 25, bit: 2)
        public static let leSetScanParameters = Position(octet: 26, bit: 2)
        public static let leSetScanEnable = Position(octet: 26, bit: 3)
        public static let leSetExtendedScanParameters = Position(octet: 37, bit: 5)
        public static let leSetExtendedScanEnable = Position(octet: 37, bit: 6)
    }

    /// Always 64 octets.
    public let octets: [UInt8]

    static let encodedLength = 64

    /// Nil unless given exactly 64 octets.
    public init?(octets: [UInt8]) {
        guard octets.count == Self.encodedLength else { return nil }
        self.octets = octets
    }

    public func supports(_ position: Position) -> Bool {
        guard octets.indices.contains(position.octet), (0..<8).contains(position.bit) else { return false }
        return octets[position.octet] & (1 << UInt8(position.bit)) != 0
    }

    /// Both extended scanning commands are there: scan with 0x2041/0x2042, not the legacy pair.
    public var supportsExtendedScanning: Bool {
        supports(.leSetExtendedScanParameters) && supports(.leSetExtendedScanEnable)
    }
}
