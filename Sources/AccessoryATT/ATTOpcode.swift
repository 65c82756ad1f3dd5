/// The ATT opcodes this codec speaks (Core Spec Vol 3 Part F §3.4.8): the
/// discovery, read and write requests a GATT client needs, their responses,
/// the error response and notifications.
public enum ATTOpcode: UInt8, Hashable, Sendable, CaseIterable {
    case errorResponse = 0x01
    case exchangeMTURequest = 0x02
    case exchangeMTUResponse = 0x03
    case findInformationRequest = 0x04
    case findInformationResponse = 0x05
    case readByTypeRequest = 0x08
    case readByTypeResponse = 0x09
    case readRequest = 0x0A
    case readResponse = 0x0B
    case readByGroupTypeRequest = 0x10
    case readByGroupTypeResponse = 0x11
    case writeRequest = 0x12
    case writeResponse = 0x13
    case handleValueNotification = 0x1B
    case handleValueIndication = 0x1D
    case handleValueConfirmation = 0x1E
}
