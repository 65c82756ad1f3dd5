import AccessoryCore

/// Why a management event about pairing could not be decoded: the event and
/// how its length was wrong. Never a key's value.
public enum ManagementDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than the six header octets.
    case truncatedHeader(length: Int)
    /// The header's parameter length disagrees with the octets after it.
    case parameterLengthMismatch(declared: Int, actual: Int)
    /// The event's parameters are not the size its definition gives.
    case wrongParameterLength(event: UInt16, expected: Int, actual: Int)
    /// An address type that is not BR/EDR, LE public or LE random.
    case unknownAddressType(event: UInt16, UInt8)

    public var description: String {
        switch self {
        case .truncatedHeader(let length): "management packet of \(length) octets, shorter than its header"
        case .parameterLengthMismatch(let declared, let actual):
            "management header declares \(declared) parameter octets, \(actual) follow"
        case .wrongParameterLength(let event, let expected, let actual):
            "management event 0x\(hexByte(UInt8(event >> 8)))\(hexByte(UInt8(event & 0xFF))) has \(actual) parameter octets, not \(expected)"
        case .unknownAddressType(let event, let type):
            "management event 0x\(hexByte(UInt8(event >> 8)))\(hexByte(UInt8(event & 0xFF))) names address type \(type)"
        }
    }
}
