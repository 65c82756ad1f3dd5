/// How an H4 (datalink 1002) record maps onto a monitor opcode and back.
/// Record flags: bit 0 is the direction (1 = controller to host), bit 1 is
/// set for commands and events.
enum BtsnoopH4Mapping {
    static let receivedFlag: UInt32 = 1 << 0
    static let commandOrEventFlag: UInt32 = 1 << 1

    static func opcode(indicator: UInt8, flags: UInt32) -> HCIMonitorOpcode? {
        let received = flags & receivedFlag != 0
        switch HCIPacketIndicator(rawValue: indicator) {
        case .command: return .commandPacket
        case .event: return .eventPacket
        case .aclData: return received ? .aclRxPacket : .aclTxPacket
        case .synchronousData: return received ? .scoRxPacket : .scoTxPacket
        case .isoData: return received ? .isoRxPacket : .isoTxPacket
        case nil: return nil
        }
    }

    static func indicatorAndFlags(for opcode: HCIMonitorOpcode) -> (indicator: HCIPacketIndicator, flags: UInt32)? {
        switch opcode {
        case .commandPacket: (.command, commandOrEventFlag)
        case .eventPacket: (.event, commandOrEventFlag | receivedFlag)
        case .aclTxPacket: (.aclData, 0)
        case .aclRxPacket: (.aclData, receivedFlag)
        case .scoTxPacket: (.synchronousData, 0)
        case .scoRxPacket: (.synchronousData, receivedFlag)
        case .isoTxPacket: (.isoData, 0)
        case .isoRxPacket: (.isoData, receivedFlag)
        default: nil
        }
    }
}
