import AccessoryCore

/// The error code of an ATT Error Response (Core Spec Vol 3 Part F §3.4.1.1;
/// 0xFC...0xFF from Core Spec Supplement Part B §1.2).
public enum ATTErrorCode: Hashable, Sendable, CustomStringConvertible {
    case invalidHandle
    case readNotPermitted
    case writeNotPermitted
    case invalidPDU
    case insufficientAuthentication
    case requestNotSupported
    case invalidOffset
    case insufficientAuthorization
    case prepareQueueFull
    case attributeNotFound
    case attributeNotLong
    case encryptionKeySizeTooShort
    case invalidAttributeValueLength
    case unlikelyError
    case insufficientEncryption
    case unsupportedGroupType
    case insufficientResources
    case databaseOutOfSync
    case valueNotAllowed
    /// 0x80...0x9F: defined by the higher layer (the service).
    case application(UInt8)
    /// 0xE0...0xFF: common profile and service errors (e.g. 0xFD CCC improperly configured).
    case commonProfile(UInt8)
    /// Any other value: reserved for future use, kept so nothing is lost.
    case reserved(UInt8)

    /// The named codes with their values and the specification's names.
    private static let named: [(code: ATTErrorCode, value: UInt8, name: String)] = [
        (.invalidHandle, 0x01, "Invalid Handle"), (.readNotPermitted, 0x02, "Read Not Permitted"),
        (.writeNotPermitted, 0x03, "Write Not Permitted"), (.invalidPDU, 0x04, "Invalid PDU"),
        (.insufficientAuthentication, 0x05, "Insufficient Authentication"),
        (.requestNotSupported, 0x06, "Request Not Supported"), (.invalidOffset, 0x07, "Invalid Offset"),
        (.insufficientAuthorization, 0x08, "Insufficient Authorization"),
        (.prepareQueueFull, 0x09, "Prepare Queue Full"), (.attributeNotFound, 0x0A, "Attribute Not Found"),
        (.attributeNotLong, 0x0B, "Attribute Not Long"),
        (.encryptionKeySizeTooShort, 0x0C, "Encryption Key Size Too Short"),
        (.invalidAttributeValueLength, 0x0D, "Invalid Attribute Value Length"),
        (.unlikelyError, 0x0E, "Unlikely Error"), (.insufficientEncryption, 0x0F, "Insufficient Encryption"),
        (.unsupportedGroupType, 0x10, "Unsupported Group Type"),
        (.insufficientResources, 0x11, "Insufficient Resources"),
        (.databaseOutOfSync, 0x12, "Database Out Of Sync"), (.valueNotAllowed, 0x13, "Value Not Allowed"),
    ]

    public init(rawValue: UInt8) {
        if let match = Self.named.first(where: { $0.value == rawValue }) {
            self = match.code
        } else if (0x80...0x9F).contains(rawValue) {
            self = .application(rawValue)
        } else if rawValue >= 0xE0 {
            self = .commonProfile(rawValue)
        } else {
            self = .reserved(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .application(let value), .commonProfile(let value), .reserved(let value): return value
        default: return Self.named.first(where: { $0.code == self })?.value ?? 0
        }
    }

    /// `Attribute Not Found (0x0a)`.
    public var description: String {
        let name = Self.named.first(where: { $0.code == self })?.name
        switch self {
        case .application: return "Application Error (0x\(hexByte(rawValue)))"
        case .commonProfile: return "Common Profile Error (0x\(hexByte(rawValue)))"
        case .reserved: return "Reserved Error (0x\(hexByte(rawValue)))"
        default: return "\(name ?? "?") (0x\(hexByte(rawValue)))"
        }
    }
}
