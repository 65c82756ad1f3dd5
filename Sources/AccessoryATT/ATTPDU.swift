import AccessoryCore

/// One ATT PDU (Core Spec Vol 3 Part F §3.4), as it travels in an L2CAP
/// payload on the ATT fixed channel or an enhanced ATT bearer. Decoded by
/// `ATTPDU(decoding:)`, encoded by `encoded`.
public enum ATTPDU: Hashable, Sendable {
    case errorResponse(requestOpcode: UInt8, handle: UInt16, error: ATTErrorCode)
    case exchangeMTURequest(clientRxMTU: UInt16)
    case exchangeMTUResponse(serverRxMTU: UInt16)
    case findInformationRequest(ATTHandleRange)
    /// Every entry has a 16-bit UUID, or every entry a 128-bit one (the format octet).
    case findInformationResponse([ATTHandleType])
    case readByTypeRequest(ATTHandleRange, type: BluetoothUUID)
    /// Every value has the same length (the length octet).
    case readByTypeResponse([ATTHandleValue])
    case readRequest(handle: UInt16)
    case readResponse(value: [UInt8])
    case readByGroupTypeRequest(ATTHandleRange, type: BluetoothUUID)
    /// Every value has the same length (the length octet).
    case readByGroupTypeResponse([ATTGroupData])
    case writeRequest(handle: UInt16, value: [UInt8])
    case writeResponse
    case handleValueNotification(handle: UInt16, value: [UInt8])
    case handleValueIndication(handle: UInt16, value: [UInt8])
    case handleValueConfirmation

    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        }
    }

    /// The default ATT_MTU on LE (Core Spec Vol 3 Part F §3.2.8).
    public static let defaultLEMTU: UInt16 = 23
}
