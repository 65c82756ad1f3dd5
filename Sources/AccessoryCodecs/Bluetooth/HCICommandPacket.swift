import AccessoryATT
/// An HCI command packet as another host process sent it (a raw HCI socket
/// sees the kernel's and bluetoothd's commands too): opcode, parameter
/// length, parameters (Core Spec Vol 4 Part E §5.4.1), without the H4 indicator.
/// The agent reads them to know who turned LE scanning on or off.
public struct HCICommandPacket: Hashable, Sendable {
    public var opcode: HCIOpcode
    public var parameters: [UInt8]

    public init(opcode: HCIOpcode, parameters: [UInt8]) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// The length octet must match the parameters exactly.
    public static func decode(_ bytes: some Collection<UInt8>) throws(HCICommandPacketError) -> HCICommandPacket {
        var reader = BluetoothByteReader(Array(bytes))
        guard let opcode = reader.readUInt16LE(), let declared = reader.readUInt8() else {
            throw .truncatedHeader(length: reader.offset)
        }
        guard Int(declared) == reader.remainingCount else {
            throw .parameterLengthMismatch(declared: Int(declared), actual: reader.remainingCount)
        }
        return HCICommandPacket(opcode: HCIOpcode(rawValue: opcode), parameters: reader.readRemaining())
    }

    /// For LE Set Scan Enable and LE Set Extended Scan Enable: whether the
    /// command turns scanning on (its first parameter); nil for other commands
    /// or when the parameter is missing.
    public var scanEnable: Bool? {
        guard opcode == .leSetScanEnable || opcode == .leSetExtendedScanEnable, let first = parameters.first else {
            return nil
        }
        return first != 0
    }
}

public enum HCICommandPacketError: Error, Hashable, Sendable {
    /// Fewer than the three header octets (opcode and length).
    case truncatedHeader(length: Int)
    case parameterLengthMismatch(declared: Int, actual: Int)
}
