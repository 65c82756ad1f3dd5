import AccessoryATT
/// What a command returns after its status, typed for the commands the agent sends.
public enum HCIReturnParameters: Hashable, Sendable {
    /// Nothing beyond the status: the command returns only a status, it failed (a
    /// failed command's other return parameters mean nothing and controllers often
    /// omit them), or it was the no-operation credit update.
    case noParameters
    case localVersionInformation(HCILocalVersionInformation)
    case localSupportedCommands(HCISupportedCommands)
    case leLocalSupportedFeatures(LESupportedFeatures)
    /// Octets after the status of a command this codec does not type.
    case unparsed([UInt8])

    /// Newer specifications may append fields: a longer reply is fine, a shorter one is not.
    static func decode(opcode: HCIOpcode, status: HCIStatus, octets: [UInt8]) throws(HCIDecodingError) -> HCIReturnParameters {
        guard status.isSuccess else { return .noParameters }
        var reader = BluetoothByteReader(octets)
        func truncated(expecting expected: Int) -> HCIDecodingError {
            .truncatedReturnParameters(opcode: opcode, expected: expected, actual: octets.count)
        }
        switch opcode {
        case .readLocalVersionInformation:
            guard let hciVersion = reader.readUInt8(), let hciRevision = reader.readUInt16LE(),
                let lmpVersion = reader.readUInt8(), let manufacturer = reader.readUInt16LE(),
                let lmpSubversion = reader.readUInt16LE()
            else { throw truncated(expecting: HCILocalVersionInformation.encodedLength) }
            return .localVersionInformation(
                HCILocalVersionInformation(
                    hciVersion: hciVersion, hciRevision: hciRevision, lmpVersion: lmpVersion,
                    manufacturer: manufacturer, lmpSubversion: lmpSubversion))
        case .readLocalSupportedCommands:
            guard let field = reader.read(count: HCISupportedCommands.encodedLength),
                let commands = HCISupportedCommands(octets: field)
            else { throw truncated(expecting: HCISupportedCommands.encodedLength) }
            return .localSupportedCommands(commands)
        case .leReadLocalSupportedFeatures:
            guard let field = reader.read(count: LESupportedFeatures.encodedLength) else {
                throw truncated(expecting: LESupportedFeatures.encodedLength)
            }
            // A little-endian 64-bit field.
            return .leLocalSupportedFeatures(
                LESupportedFeatures(rawValue: field.reversed().reduce(0) { $0 << 8 | UInt64($1) }))
        case .leSetEventMask, .leSetScanParameters, .leSetScanEnable,
            .leSetExtendedScanParameters, .leSetExtendedScanEnable, .setEventMask, .reset:
            return .noParameters
        default:
            return octets.isEmpty ? .noParameters : .unparsed(octets)
        }
    }
}
