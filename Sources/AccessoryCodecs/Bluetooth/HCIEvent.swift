import AccessoryATT
/// An HCI event packet from the controller (Core Spec Vol 4 Part E §5.4.4),
/// typed for what the agent needs while scanning.
public enum HCIEvent: Hashable, Sendable {
    case commandComplete(HCICommandComplete)
    case commandStatus(HCICommandStatus)
    /// The controller reports a hardware fault; the code is vendor specific.
    case hardwareError(code: UInt8)
    case leMeta(LEMetaEvent)
    /// Any other event, with its parameters.
    case other(code: UInt8, parameters: [UInt8])

    public static let commandCompleteCode: UInt8 = 0x0E
    public static let commandStatusCode: UInt8 = 0x0F
    public static let hardwareErrorCode: UInt8 = 0x10
    public static let leMetaCode: UInt8 = 0x3E

    /// Decodes an event packet without a packet indicator: event code,
    /// parameter length, parameters. The length must match the bytes exactly.
    public static func decode(_ bytes: some Collection<UInt8>) throws(HCIDecodingError) -> HCIEvent {
        var reader = BluetoothByteReader(Array(bytes))
        guard !reader.isAtEnd else { throw .emptyPacket }
        guard let code = reader.readUInt8(), let declared = reader.readUInt8() else {
            throw .truncatedHeader(length: reader.offset)
        }
        guard Int(declared) == reader.remainingCount else {
            throw .parameterLengthMismatch(declared: Int(declared), actual: reader.remainingCount)
        }
        switch code {
        case commandCompleteCode:
            return .commandComplete(try HCICommandComplete.decode(&reader))
        case commandStatusCode:
            return .commandStatus(try HCICommandStatus.decode(&reader))
        case hardwareErrorCode:
            guard let hardwareCode = reader.readUInt8() else { throw .truncatedHardwareError }
            return .hardwareError(code: hardwareCode)
        case leMetaCode:
            return .leMeta(try LEMetaEvent.decode(&reader))
        default:
            return .other(code: code, parameters: reader.readRemaining())
        }
    }

    /// Decodes a packet that starts with the H4 indicator, as read from a raw
    /// HCI socket: the indicator must be 0x04 (event).
    public static func decode(h4Packet bytes: some Collection<UInt8>) throws(HCIDecodingError) -> HCIEvent {
        guard let indicator = bytes.first else { throw .emptyPacket }
        guard indicator == HCIPacketIndicator.event.rawValue else { throw .notAnEvent(indicator: indicator) }
        return try decode(bytes.dropFirst())
    }
}
