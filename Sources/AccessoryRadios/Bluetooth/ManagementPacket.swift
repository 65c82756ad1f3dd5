/// The kernel's Bluetooth management protocol (HCI_CHANNEL_CONTROL), the
/// few packets accessoryd uses: Set Powered out; command answers, New
/// Settings, Index Added and Index Removed in. Every packet is a 6-octet
/// header (opcode or event code, controller index, parameter length, all
/// little-endian) and its parameters (BlueZ's doc/mgmt-api.txt).
public enum ManagementPacket {
    public static let setPoweredOpcode: UInt16 = 0x0005
    /// Current Settings bit 0.
    public static let poweredSetting: UInt32 = 1 << 0
    /// The index of no controller.
    public static let noController: UInt16 = 0xFFFF

    public static func setPowered(controller index: UInt16, on: Bool) -> [UInt8] {
        command(setPoweredOpcode, controller: index, parameters: [on ? 1 : 0])
    }

    public static func command(_ opcode: UInt16, controller index: UInt16, parameters: [UInt8]) -> [UInt8] {
        littleEndian(opcode) + littleEndian(index) + littleEndian(UInt16(parameters.count)) + parameters
    }

    public enum Event: Hashable, Sendable {
        /// Command Complete (0x0001) or Command Status (0x0002): `settings`
        /// when the answer carries Current Settings (as Set Powered's does).
        case commandAnswered(opcode: UInt16, controller: UInt16, status: UInt8, settings: UInt32?)
        /// New Settings (0x0006): a controller's settings changed, whoever changed them.
        case newSettings(controller: UInt16, settings: UInt32)
        /// Index Added (0x0004): a controller finished its setup and may be managed.
        case indexAdded(UInt16)
        /// Index Removed (0x0005).
        case indexRemoved(UInt16)
        /// Any other event, or a packet too short for its code.
        case other(code: UInt16)
    }

    /// One event, or nil when the header is cut or its length disagrees with the packet.
    public static func decode(_ packet: some Collection<UInt8>) -> Event? {
        let bytes = Array(packet)
        guard bytes.count >= 6 else { return nil }
        let code = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        let index = UInt16(bytes[2]) | UInt16(bytes[3]) << 8
        let length = Int(UInt16(bytes[4]) | UInt16(bytes[5]) << 8)
        guard bytes.count == 6 + length else { return nil }
        let parameters = bytes[6...]
        func settings(at offset: Int) -> UInt32? {
            let start = parameters.startIndex + offset
            guard parameters.count >= offset + 4 else { return nil }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(parameters[start + $1]) << (8 * UInt32($1)) }
        }
        switch code {
        case 0x0001, 0x0002:
            guard parameters.count >= 3 else { return .other(code: code) }
            let opcode = UInt16(parameters[parameters.startIndex]) | UInt16(parameters[parameters.startIndex + 1]) << 8
            let status = parameters[parameters.startIndex + 2]
            // Only commands whose answer is Current Settings; others carry other things there.
            let carriesSettings = code == 0x0001 && opcode == setPoweredOpcode
            return .commandAnswered(opcode: opcode, controller: index, status: status,
                                    settings: carriesSettings ? settings(at: 3) : nil)
        case 0x0006:
            guard let value = settings(at: 0) else { return .other(code: code) }
            return .newSettings(controller: index, settings: value)
        case 0x0004: return .indexAdded(index)
        case 0x0005: return .indexRemoved(index)
        default: return .other(code: code)
        }
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
