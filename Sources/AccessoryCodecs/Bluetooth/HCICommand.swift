/// The HCI commands the agent sends to set up and run LE scanning. The agent
/// shares the controller with the kernel, so it never resets it.
///
/// Legacy (0x200B/0x200C) and extended (0x2041/0x2042) scanning must not be
/// mixed on one controller: pick one after reading the supported commands.
public enum HCICommand: Hashable, Sendable {
    case readLocalVersionInformation
    case readLocalSupportedCommands
    case leReadLocalSupportedFeatures
    /// Extended advertising reports need `.extendedAdvertisingReport` in the mask.
    case leSetEventMask(LEEventMask)
    case leSetScanParameters(LEScanParameters)
    case leSetScanEnable(enabled: Bool, filterDuplicates: Bool)
    case leSetExtendedScanParameters(LEExtendedScanParameters)
    /// `duration` counts 10 ms units and `period` 1.28 s units; 0 means scan until disabled.
    case leSetExtendedScanEnable(
        enabled: Bool, filterDuplicates: LEDuplicateFilter, duration: UInt16 = 0, period: UInt16 = 0)

    public var opcode: HCIOpcode {
        switch self {
        case .readLocalVersionInformation: .readLocalVersionInformation
        case .readLocalSupportedCommands: .readLocalSupportedCommands
        case .leReadLocalSupportedFeatures: .leReadLocalSupportedFeatures
        case .leSetEventMask: .leSetEventMask
        case .leSetScanParameters: .leSetScanParameters
        case .leSetScanEnable: .leSetScanEnable
        case .leSetExtendedScanParameters: .leSetExtendedScanParameters
        case .leSetExtendedScanEnable: .leSetExtendedScanEnable
        }
    }

    /// The command's parameters as they follow the packet header.
    public var parameters: [UInt8] {
        switch self {
        case .readLocalVersionInformation, .readLocalSupportedCommands, .leReadLocalSupportedFeatures:
            return []
        case .leSetEventMask(let mask):
            return littleEndian(mask.rawValue)
        case .leSetScanParameters(let p):
            return [p.scanType.rawValue] + littleEndian(p.interval) + littleEndian(p.window)
                + [p.ownAddressType.rawValue, p.filterPolicy.rawValue]
        case .leSetScanEnable(let enabled, let filterDuplicates):
            return [enabled ? 1 : 0, filterDuplicates ? 1 : 0]
        case .leSetExtendedScanParameters(let p):
            // Scanning_PHYs says which entries follow, in bit order: 1M (bit 0), Coded (bit 2).
            let entries = [p.le1M, p.leCoded]
            let phyBits: [UInt8] = [0x01, 0x04]
            var scanningPHYs: UInt8 = 0
            var perPHY: [UInt8] = []
            for (entry, bit) in zip(entries, phyBits) {
                guard let entry else { continue }
                scanningPHYs |= bit
                perPHY += [entry.scanType.rawValue] + littleEndian(entry.interval) + littleEndian(entry.window)
            }
            return [p.ownAddressType.rawValue, p.filterPolicy.rawValue, scanningPHYs] + perPHY
        case .leSetExtendedScanEnable(let enabled, let filterDuplicates, let duration, let period):
            return [enabled ? 1 : 0, filterDuplicates.rawValue] + littleEndian(duration) + littleEndian(period)
        }
    }

    /// The HCI command packet: opcode (little endian), parameter length, parameters.
    public func encoded() -> [UInt8] {
        let parameters = parameters
        // Every command here has at most 13 parameter bytes, well under the 255 limit.
        return littleEndian(opcode.rawValue) + [UInt8(truncatingIfNeeded: parameters.count)] + parameters
    }

    /// The packet preceded by the H4 command indicator, as written to a raw HCI socket.
    public func encodedH4() -> [UInt8] {
        [HCIPacketIndicator.command.rawValue] + encoded()
    }
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
