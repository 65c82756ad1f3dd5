import AccessoryATT
/// A Command Complete event (0x0E): the controller finished a command and
/// returns its results (Core Spec Vol 4 Part E §7.7.14).
public struct HCICommandComplete: Hashable, Sendable {
    /// How many more commands the host may send now (Num_HCI_Command_Packets).
    public var allowedCommandPackets: UInt8
    public var opcode: HCIOpcode
    /// Nil only for the no-operation opcode, which returns nothing.
    public var status: HCIStatus?
    public var returnParameters: HCIReturnParameters

    public init(allowedCommandPackets: UInt8, opcode: HCIOpcode, status: HCIStatus?, returnParameters: HCIReturnParameters) {
        self.allowedCommandPackets = allowedCommandPackets
        self.opcode = opcode
        self.status = status
        self.returnParameters = returnParameters
    }

    static func decode(_ reader: inout BluetoothByteReader) throws(HCIDecodingError) -> HCICommandComplete {
        let length = reader.remainingCount
        guard let credits = reader.readUInt8(), let rawOpcode = reader.readUInt16LE() else {
            throw .truncatedCommandComplete(length: length)
        }
        let opcode = HCIOpcode(rawValue: rawOpcode)
        guard let statusCode = reader.readUInt8() else {
            // Only the no-operation credit update may omit the status.
            guard opcode == .noOperation else { throw .truncatedCommandComplete(length: length) }
            return HCICommandComplete(allowedCommandPackets: credits, opcode: opcode, status: nil, returnParameters: .noParameters)
        }
        let status = HCIStatus(code: statusCode)
        let rest = reader.readRemaining()
        return HCICommandComplete(
            allowedCommandPackets: credits, opcode: opcode, status: status,
            returnParameters: try HCIReturnParameters.decode(opcode: opcode, status: status, octets: rest))
    }
}
