/// What a record of the Linux Bluetooth monitor channel holds (the opcodes of
/// `btmon` and btsnoop datalink 2001, from BlueZ's monitor documentation).
/// Records of an H4 capture are given the matching opcode too, so callers
/// read both kinds of capture the same way.
public struct HCIMonitorOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let newIndex = HCIMonitorOpcode(rawValue: 0)
    public static let deleteIndex = HCIMonitorOpcode(rawValue: 1)
    /// An HCI command packet, host to controller (no packet indicator).
    public static let commandPacket = HCIMonitorOpcode(rawValue: 2)
    /// An HCI event packet, controller to host (no packet indicator).
    public static let eventPacket = HCIMonitorOpcode(rawValue: 3)
    public static let aclTxPacket = HCIMonitorOpcode(rawValue: 4)
    public static let aclRxPacket = HCIMonitorOpcode(rawValue: 5)
    public static let scoTxPacket = HCIMonitorOpcode(rawValue: 6)
    public static let scoRxPacket = HCIMonitorOpcode(rawValue: 7)
    public static let openIndex = HCIMonitorOpcode(rawValue: 8)
    public static let closeIndex = HCIMonitorOpcode(rawValue: 9)
    public static let indexInfo = HCIMonitorOpcode(rawValue: 10)
    public static let vendorDiagnostic = HCIMonitorOpcode(rawValue: 11)
    public static let systemNote = HCIMonitorOpcode(rawValue: 12)
    public static let userLogging = HCIMonitorOpcode(rawValue: 13)
    public static let controlOpen = HCIMonitorOpcode(rawValue: 14)
    public static let controlClose = HCIMonitorOpcode(rawValue: 15)
    public static let controlCommand = HCIMonitorOpcode(rawValue: 16)
    public static let controlEvent = HCIMonitorOpcode(rawValue: 17)
    public static let isoTxPacket = HCIMonitorOpcode(rawValue: 18)
    public static let isoRxPacket = HCIMonitorOpcode(rawValue: 19)

    /// Which way an HCI packet travelled; nil for records that are not HCI packets.
    public var direction: HCIPacketDirection? {
        switch self {
        case .commandPacket, .aclTxPacket, .scoTxPacket, .isoTxPacket: .hostToController
        case .eventPacket, .aclRxPacket, .scoRxPacket, .isoRxPacket: .controllerToHost
        default: nil
        }
    }

    public var description: String {
        let names = [
            "new-index", "delete-index", "command", "event", "acl-tx", "acl-rx", "sco-tx", "sco-rx",
            "open-index", "close-index", "index-info", "vendor-diagnostic", "system-note", "user-logging",
            "control-open", "control-close", "control-command", "control-event", "iso-tx", "iso-rx",
        ]
        return Int(rawValue) < names.count ? names[Int(rawValue)] : "opcode-\(rawValue)"
    }
}

public enum HCIPacketDirection: Hashable, Sendable {
    case hostToController
    case controllerToHost
}
