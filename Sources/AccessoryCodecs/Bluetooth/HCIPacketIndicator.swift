/// The one-byte packet type that precedes each HCI packet on a UART (H4) and
/// on the kernel's raw HCI socket (Core Spec Vol 4 Part A §2).
public enum HCIPacketIndicator: UInt8, Hashable, Sendable {
    case command = 0x01
    case aclData = 0x02
    case synchronousData = 0x03
    case event = 0x04
    case isoData = 0x05
}
