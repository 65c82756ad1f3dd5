import AccessoryCodecs

/// One command the agent sends to a controller while setting up or running a scan.
public enum ScanCommand: Hashable, Sendable {
    case hci(HCICommand)
    /// HCI Reset: only on a controller the agent has to itself (user channel);
    /// on a shared controller the kernel owns its initialisation.
    case reset
    /// Set Event Mask: after a reset the default mask leaves LE Meta events off.
    case setEventMask(UInt64)

    /// The reset default (0x00001FFFFFFFFFFF) plus LE Meta (bit 61).
    public static let eventMaskWithLEMeta: UInt64 = 0x0000_1FFF_FFFF_FFFF | 1 << 61

    public var opcode: HCIOpcode {
        switch self {
        case .hci(let command): command.opcode
        case .reset: .reset
        case .setEventMask: .setEventMask
        }
    }

    /// Whether the command turns scanning on (true) or off (false); nil for the others.
    public var scanEnable: Bool? {
        switch self {
        case .hci(.leSetScanEnable(let enabled, _)), .hci(.leSetExtendedScanEnable(let enabled, _, _, _)): enabled
        default: nil
        }
    }

    /// The H4 packet written to the socket.
    public func encodedH4() -> [UInt8] {
        switch self {
        case .hci(let command):
            return command.encodedH4()
        case .reset:
            return [HCIPacketIndicator.command.rawValue] + littleEndian(opcode.rawValue) + [0]
        case .setEventMask(let mask):
            return [HCIPacketIndicator.command.rawValue] + littleEndian(opcode.rawValue) + [8] + littleEndian(mask)
        }
    }
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
