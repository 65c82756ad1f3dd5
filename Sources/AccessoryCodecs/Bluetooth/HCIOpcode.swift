import AccessoryCore

/// An HCI command opcode: OGF in the top 6 bits, OCF in the low 10
/// (Core Spec Vol 4 Part E §5.4.1). Sent little endian.
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `ocf` keeps only its low 10 bits and `ogf` its low 6, as the packet does.
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// `0x2003`, the form the specification and btmon's summary use.
    public var description: String {
        "0x" + hexByte(UInt8(truncatingIfNeeded: rawValue >> 8)) + hexByte(UInt8(truncatingIfNeeded: rawValue))
    }

    /// Opcode 0: a Command Complete or Status that only returns command credits.
    public static let noOperation = HCIOpcode(rawValue: 0x0000)
    public static let setEventMask = HCIOpcode(rawValue: 0x0C01)
    public static let reset = HCIOpcode(rawValue: 0x0C03)
    public static let readLocalVersionInformation = HCIOpcode(rawValue: 0x1001)
    public static let readLocalSupportedCommands = HCIOpcode(rawValue: 0x1002)
    public static let leSetEventMask = HCIOpcode(rawValue: 0x2001)
    public static let leReadLocalSupportedFeatures = HCIOpcode(rawValue: 0x2003)
    public static let leSetScanParameters = HCIOpcode(rawValue: 0x200B)
    public static let leSetScanEnable = HCIOpcode(rawValue: 0x200C)
    public static let leSetExtendedScanParameters = HCIOpcode(rawValue: 0x2041)
    public static let leSetExtendedScanEnable = HCIOpcode(rawValue: 0x2042)
}
