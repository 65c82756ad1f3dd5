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
            return HCICommandComplete(allowedCommandPackets: credits, opcode: opcode, status: nil, returnParameters: .none)
        }
        let status = HCIStatus(code: statusCode)
        let rest = reader.readRemaining()
        return HCICommandComplete(
            allowedCommandPackets: credits, opcode: opcode, status: status,
            returnParameters: try HCIReturnParameters.decode(opcode: opcode, status: status, octets: rest))
    }
}

/// What a command returns after its status, typed for the commands the agent sends.
public enum HCIReturnParameters: Hashable, Sendable {
    /// The command returns only a status, or it failed (a failed command's other
    /// return parameters are not meaningful and controllers often omit them).
    case none
    case localVersionInformation(HCILocalVersionInformation)
    case localSupportedCommands(HCISupportedCommands)
    case leLocalSupportedFeatures(LESupportedFeatures)
    /// Octets after the status of a command this codec does not type.
    case unparsed([UInt8])

    static func decode(opcode: HCIOpcode, status: HCIStatus, octets: [UInt8]) throws(HCIDecodingError) -> HCIReturnParameters {
        guard status.isSuccess else { return .none }
        var reader = BluetoothByteReader(octets)
        func require(_ expected: Int) throws(HCIDecodingError) {
            // Newer specifications may append fields: a longer reply is fine, a shorter one is not.
            guard octets.count >= expected else {
                throw .truncatedReturnParameters(opcode: opcode, expected: expected, actual: octets.count)
            }
        }
        switch opcode {
        case .readLocalVersionInformation:
            try require(HCILocalVersionInformation.encodedLength)
            guard let hciVersion = reader.readUInt8(), let hciRevision = reader.readUInt16LE(),
                let lmpVersion = reader.readUInt8(), let manufacturer = reader.readUInt16LE(),
                let lmpSubversion = reader.readUInt16LE()
            else { throw .truncatedReturnParameters(opcode: opcode, expected: 8, actual: octets.count) }
            return .localVersionInformation(
                HCILocalVersionInformation(
                    hciVersion: hciVersion, hciRevision: hciRevision, lmpVersion: lmpVersion,
                    manufacturer: manufacturer, lmpSubversion: lmpSubversion))
        case .readLocalSupportedCommands:
            try require(HCISupportedCommands.encodedLength)
            guard let field = reader.read(count: HCISupportedCommands.encodedLength),
                let commands = HCISupportedCommands(octets: field)
            else { throw .truncatedReturnParameters(opcode: opcode, expected: 64, actual: octets.count) }
            return .localSupportedCommands(commands)
        case .leReadLocalSupportedFeatures:
            try require(LESupportedFeatures.encodedLength)
            guard let field = reader.read(count: LESupportedFeatures.encodedLength) else {
                throw .truncatedReturnParameters(opcode: opcode, expected: 8, actual: octets.count)
            }
            return .leLocalSupportedFeatures(
                LESupportedFeatures(rawValue: field.reversed().reduce(0) { $0 << 8 | UInt64($1) }))
        case .leSetEventMask, .leSetScanParameters, .leSetScanEnable,
            .leSetExtendedScanParameters, .leSetExtendedScanEnable, .setEventMask, .reset:
            return .none
        default:
            return octets.isEmpty ? .none : .unparsed(octets)
        }
    }
}
