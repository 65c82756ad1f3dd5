import AccessoryCore
import AccessoryPlatform

/// Where an L2CAP LE channel goes: the ATT fixed channel, or a
/// connection-oriented channel (LE credit-based flow control) on a PSM.
public enum L2CAPChannelKind: Hashable, Sendable, CustomStringConvertible {
    /// CID 4, the Attribute Protocol's fixed channel (Core Spec Vol 3 Part A §2.1).
    case attribute
    /// A dynamic channel on this LE PSM (0x0001...0x00FF fixed by the SIG, 0x0080... dynamic).
    case psm(UInt16)

    /// The ATT fixed channel's CID.
    public static let attributeCID: UInt16 = 0x0004

    public var description: String {
        switch self {
        case .attribute: "att"
        case .psm(let psm): "psm \(psm)"
        }
    }
}
