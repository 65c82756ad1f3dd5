import AccessoryATT
/// A Command Status event (0x0F): the controller accepted (or refused) a
/// command whose result comes later in another event (Core Spec Vol 4 Part E §7.7.15).
/// Controllers also use it to refuse commands they do not know.
public struct HCICommandStatus: Hashable, Sendable {
    public var status: HCIStatus
    /// How many more commands the host may send now (Num_HCI_Command_Packets).
    public var allowedCommandPackets: UInt8
    public var opcode: HCIOpcode

    public init(status: HCIStatus, allowedCommandPackets: UInt8, opcode: HCIOpcode) {
        self.status = status
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
    }

    static let encodedLength = 4

    static func decode(_ reader: inout BluetoothByteReader) throws(HCIDecodingError) -> HCICommandStatus {
        guard reader.remainingCount == encodedLength,
            let status = reader.readUInt8(), let credits = reader.readUInt8(), let opcode = reader.readUInt16LE()
        else { throw .invalidCommandStatusLength(reader.remainingCount) }
        return HCICommandStatus(
            status: HCIStatus(code: status), allowedCommandPackets: credits, opcode: HCIOpcode(rawValue: opcode))
    }
}
