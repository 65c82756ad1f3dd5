import AccessoryCore

/// An HCI status / error code (Core Spec Vol 1 Part F §1.3). Codes this
/// enum does not name (reserved today, or assigned after it was written)
/// survive as `.other` so that nothing is lost or misreported.
public enum HCIStatus: Hashable, Sendable, CustomStringConvertible {
    /// 0x00 Success.
    case success
    /// 0x01 Unknown HCI Command.
    case unknownCommand
    /// 0x02 Unknown Connection Identifier.
    case unknownConnectionIdentifier
    /// 0x03 Hardware Failure.
    case hardwareFailure
    /// 0x04 Page Timeout.
    case pageTimeout
    /// 0x05 Authentication Failure.
    case authenticationFailure
    /// 0x06 PIN or Key Missing.
    case pinOrKeyMissing
    /// 0x07 Memory Capacity Exceeded.
    case memoryCapacityExceeded
    /// 0x08 Connection Timeout.
    case connectionTimeout
    /// 0x09 Connection Limit Exceeded.
    case connectionLimitExceeded
    /// 0x0A Synchronous Connection Limit To A Device Exceeded.
    case synchronousConnectionLimitExceeded
    /// 0x0B Connection Already Exists.
    case connectionAlreadyExists
    /// 0x0C Command Disallowed.
    case commandDisallowed
    /// 0x0D Connection Rejected due to Limited Resources.
    case connectionRejectedLimitedResources
    /// 0x0E Connection Rejected Due To Security Reasons.
    case connectionRejectedSecurityReasons
    /// 0x0F Connection Rejected due to Unacceptable BD_ADDR.
    case connectionRejectedUnacceptableAddress
    /// 0x10 Connection Accept Timeout Exceeded.
    case connectionAcceptTimeoutExceeded
    /// 0x11 Unsupported Feature or Parameter Value.
    case unsupportedFeatureOrParameterValue
    /// 0x12 Invalid HCI Command Parameters.
    case invalidCommandParameters
    /// 0x13 Remote User Terminated Connection.
    case remoteUserTerminatedConnection
    /// 0x14 Remote Device Terminated Connection due to Low Resources.
    case remoteDeviceTerminatedLowResources
    /// 0x15 Remote Device Terminated Connection due to Power Off.
    case remoteDeviceTerminatedPowerOff
    /// 0x16 Connection Terminated By Local Host.
    case connectionTerminatedByLocalHost
    /// 0x17 Repeated Attempts.
    case repeatedAttempts
    /// 0x18 Pairing Not Allowed.
    case pairingNotAllowed
    /// 0x19 Unknown LMP PDU.
    case unknownLMPPDU
    /// 0x1A Unsupported Remote Feature.
    case unsupportedRemoteFeature
    /// 0x1E Invalid LMP Parameters / Invalid LL Parameters.
    case invalidLLParameters
    /// 0x1F Unspecified Error.
    case unspecifiedError
    /// 0x20 Unsupported LMP Parameter Value / Unsupported LL Parameter Value.
    case unsupportedLLParameterValue
    /// 0x21 Role Change Not Allowed.
    case roleChangeNotAllowed
    /// 0x22 LMP Response Timeout / LL Response Timeout.
    case llResponseTimeout
    /// 0x23 LMP Error Transaction Collision / LL Procedure Collision.
    case llProcedureCollision
    /// 0x24 LMP PDU Not Allowed.
    case lmpPDUNotAllowed
    /// 0x25 Encryption Mode Not Acceptable.
    case encryptionModeNotAcceptable
    /// 0x26 Link Key cannot be Changed.
    case linkKeyCannotBeChanged
    /// 0x27 Requested QoS Not Supported.
    case requestedQoSNotSupported
    /// 0x28 Instant Passed.
    case instantPassed
    /// 0x29 Pairing With Unit Key Not Supported.
    case pairingWithUnitKeyNotSupported
    /// 0x2A Different Transaction Collision.
    case differentTransactionCollision
    /// 0x2C QoS Unacceptable Parameter.
    case qosUnacceptableParameter
    /// 0x2D QoS Rejected.
    case qosRejected
    /// 0x2E Channel Classification Not Supported.
    case channelClassificationNotSupported
    /// 0x2F Insufficient Security.
    case insufficientSecurity
    /// 0x30 Parameter Out Of Mandatory Range.
    case parameterOutOfMandatoryRange
    /// 0x32 Role Switch Pending.
    case roleSwitchPending
    /// 0x34 Reserved Slot Violation.
    case reservedSlotViolation
    /// 0x35 Role Switch Failed.
    case roleSwitchFailed
    /// 0x36 Extended Inquiry Response Too Large.
    case extendedInquiryResponseTooLarge
    /// 0x37 Secure Simple Pairing Not Supported By Host.
    case simplePairingNotSupportedByHost
    /// 0x38 Host Busy - Pairing.
    case hostBusyPairing
    /// 0x39 Connection Rejected due to No Suitable Channel Found.
    case connectionRejectedNoSuitableChannel
    /// 0x3A Controller Busy.
    case controllerBusy
    /// 0x3B Unacceptable Connection Parameters.
    case unacceptableConnectionParameters
    /// 0x3C Advertising Timeout.
    case advertisingTimeout
    /// 0x3D Connection Terminated due to MIC Failure.
    case connectionTerminatedMICFailure
    /// 0x3E Connection Failed to be Established / Synchronization Timeout.
    case connectionFailedToBeEstablished
    /// 0x40 Coarse Clock Adjustment Rejected.
    case coarseClockAdjustmentRejected
    /// 0x41 Type0 Submap Not Defined.
    case type0SubmapNotDefined
    /// 0x42 Unknown Advertising Identifier.
    case unknownAdvertisingIdentifier
    /// 0x43 Limit Reached.
    case limitReached
    /// 0x44 Operation Cancelled by Host.
    case operationCancelledByHost
    /// 0x45 Packet Too Long.
    case packetTooLong
    case other(UInt8)

    public init(code: UInt8) {
        switch code {
        case 0x00: self = .success
        case 0x01: self = .unknownCommand
        case 0x02: self = .unknownConnectionIdentifier
        case 0x03: self = .hardwareFailure
        case 0x04: self = .pageTimeout
        case 0x05: self = .authenticationFailure
        case 0x06: self = .pinOrKeyMissing
        case 0x07: self = .memoryCapacityExceeded
        case 0x08: self = .connectionTimeout
        case 0x09: self = .connectionLimitExceeded
        case 0x0A: self = .synchronousConnectionLimitExceeded
        case 0x0B: self = .connectionAlreadyExists
        case 0x0C: self = .commandDisallowed
        case 0x0D: self = .connectionRejectedLimitedResources
        case 0x0E: self = .connectionRejectedSecurityReasons
        case 0x0F: self = .connectionRejectedUnacceptableAddress
        case 0x10: self = .connectionAcceptTimeoutExceeded
        case 0x11: self = .unsupportedFeatureOrParameterValue
        case 0x12: self = .invalidCommandParameters
        case 0x13: self = .remoteUserTerminatedConnection
        case 0x14: self = .remoteDeviceTerminatedLowResources
        case 0x15: self = .remoteDeviceTerminatedPowerOff
        case 0x16: self = .connectionTerminatedByLocalHost
        case 0x17: self = .repeatedAttempts
        case 0x18: self = .pairingNotAllowed
        case 0x19: self = .unknownLMPPDU
        case 0x1A: self = .unsupportedRemoteFeature
        case 0x1E: self = .invalidLLParameters
        case 0x1F: self = .unspecifiedError
        case 0x20: self = .unsupportedLLParameterValue
        case 0x21: self = .roleChangeNotAllowed
        case 0x22: self = .llResponseTimeout
        case 0x23: self = .llProcedureCollision
        case 0x24: self = .lmpPDUNotAllowed
        case 0x25: self = .encryptionModeNotAcceptable
        case 0x26: self = .linkKeyCannotBeChanged
        case 0x27: self = .requestedQoSNotSupported
        case 0x28: self = .instantPassed
        case 0x29: self = .pairingWithUnitKeyNotSupported
        case 0x2A: self = .differentTransactionCollision
        case 0x2C: self = .qosUnacceptableParameter
        case 0x2D: self = .qosRejected
        case 0x2E: self = .channelClassificationNotSupported
        case 0x2F: self = .insufficientSecurity
        case 0x30: self = .parameterOutOfMandatoryRange
        case 0x32: self = .roleSwitchPending
        case 0x34: self = .reservedSlotViolation
        case 0x35: self = .roleSwitchFailed
        case 0x36: self = .extendedInquiryResponseTooLarge
        case 0x37: self = .simplePairingNotSupportedByHost
        case 0x38: self = .hostBusyPairing
        case 0x39: self = .connectionRejectedNoSuitableChannel
        case 0x3A: self = .controllerBusy
        case 0x3B: self = .unacceptableConnectionParameters
        case 0x3C: self = .advertisingTimeout
        case 0x3D: self = .connectionTerminatedMICFailure
        case 0x3E: self = .connectionFailedToBeEstablished
        case 0x40: self = .coarseClockAdjustmentRejected
        case 0x41: self = .type0SubmapNotDefined
        case 0x42: self = .unknownAdvertisingIdentifier
        case 0x43: self = .limitReached
        case 0x44: self = .operationCancelledByHost
        case 0x45: self = .packetTooLong
        default: self = .other(code)
        }
    }

    public var code: UInt8 {
        switch self {
        case .success: 0x00
        case .unknownCommand: 0x01
        case .unknownConnectionIdentifier: 0x02
        case .hardwareFailure: 0x03
        case .pageTimeout: 0x04
        case .authenticationFailure: 0x05
        case .pinOrKeyMissing: 0x06
        case .memoryCapacityExceeded: 0x07
        case .connectionTimeout: 0x08
        case .connectionLimitExceeded: 0x09
        case .synchronousConnectionLimitExceeded: 0x0A
        case .connectionAlreadyExists: 0x0B
        case .commandDisallowed: 0x0C
        case .connectionRejectedLimitedResources: 0x0D
        case .connectionRejectedSecurityReasons: 0x0E
        case .connectionRejectedUnacceptableAddress: 0x0F
        case .connectionAcceptTimeoutExceeded: 0x10
        case .unsupportedFeatureOrParameterValue: 0x11
        case .invalidCommandParameters: 0x12
        case .remoteUserTerminatedConnection: 0x13
        case .remoteDeviceTerminatedLowResources: 0x14
        case .remoteDeviceTerminatedPowerOff: 0x15
        case .connectionTerminatedByLocalHost: 0x16
        case .repeatedAttempts: 0x17
        case .pairingNotAllowed: 0x18
        case .unknownLMPPDU: 0x19
        case .unsupportedRemoteFeature: 0x1A
        case .invalidLLParameters: 0x1E
        case .unspecifiedError: 0x1F
        case .unsupportedLLParameterValue: 0x20
        case .roleChangeNotAllowed: 0x21
        case .llResponseTimeout: 0x22
        case .llProcedureCollision: 0x23
        case .lmpPDUNotAllowed: 0x24
        case .encryptionModeNotAcceptable: 0x25
        case .linkKeyCannotBeChanged: 0x26
        case .requestedQoSNotSupported: 0x27
        case .instantPassed: 0x28
        case .pairingWithUnitKeyNotSupported: 0x29
        case .differentTransactionCollision: 0x2A
        case .qosUnacceptableParameter: 0x2C
        case .qosRejected: 0x2D
        case .channelClassificationNotSupported: 0x2E
        case .insufficientSecurity: 0x2F
        case .parameterOutOfMandatoryRange: 0x30
        case .roleSwitchPending: 0x32
        case .reservedSlotViolation: 0x34
        case .roleSwitchFailed: 0x35
        case .extendedInquiryResponseTooLarge: 0x36
        case .simplePairingNotSupportedByHost: 0x37
        case .hostBusyPairing: 0x38
        case .connectionRejectedNoSuitableChannel: 0x39
        case .controllerBusy: 0x3A
        case .unacceptableConnectionParameters: 0x3B
        case .advertisingTimeout: 0x3C
        case .connectionTerminatedMICFailure: 0x3D
        case .connectionFailedToBeEstablished: 0x3E
        case .coarseClockAdjustmentRejected: 0x40
        case .type0SubmapNotDefined: 0x41
        case .unknownAdvertisingIdentifier: 0x42
        case .limitReached: 0x43
        case .operationCancelledByHost: 0x44
        case .packetTooLong: 0x45
        case .other(let code): code
        }
    }

    public var isSuccess: Bool { self == .success }

    /// The specification's name and the code, e.g. `Command Disallowed (0x0c)`.
    public var description: String {
        let name: String
        switch self {
        case .success: name = "Success"
        case .unknownCommand: name = "Unknown HCI Command"
        case .unknownConnectionIdentifier: name = "Unknown Connection Identifier"
        case .hardwareFailure: name = "Hardware Failure"
        case .pageTimeout: name = "Page Timeout"
        case .authenticationFailure: name = "Authentication Failure"
        case .pinOrKeyMissing: name = "PIN or Key Missing"
        case .memoryCapacityExceeded: name = "Memory Capacity Exceeded"
        case .connectionTimeout: name = "Connection Timeout"
        case .connectionLimitExceeded: name = "Connection Limit Exceeded"
        case .synchronousConnectionLimitExceeded: name = "Synchronous Connection Limit To A Device Exceeded"
        case .connectionAlreadyExists: name = "Connection Already Exists"
        case .commandDisallowed: name = "Command Disallowed"
        case .connectionRejectedLimitedResources: name = "Connection Rejected due to Limited Resources"
        case .connectionRejectedSecurityReasons: name = "Connection Rejected Due To Security Reasons"
        case .connectionRejectedUnacceptableAddress: name = "Connection Rejected due to Unacceptable BD_ADDR"
        case .connectionAcceptTimeoutExceeded: name = "Connection Accept Timeout Exceeded"
        case .unsupportedFeatureOrParameterValue: name = "Unsupported Feature or Parameter Value"
        case .invalidCommandParameters: name = "Invalid HCI Command Parameters"
        case .remoteUserTerminatedConnection: name = "Remote User Terminated Connection"
        case .remoteDeviceTerminatedLowResources: name = "Remote Device Terminated Connection due to Low Resources"
        case .remoteDeviceTerminatedPowerOff: name = "Remote Device Terminated Connection due to Power Off"
        case .connectionTerminatedByLocalHost: name = "Connection Terminated By Local Host"
        case .repeatedAttempts: name = "Repeated Attempts"
        case .pairingNotAllowed: name = "Pairing Not Allowed"
        case .unknownLMPPDU: name = "Unknown LMP PDU"
        case .unsupportedRemoteFeature: name = "Unsupported Remote Feature"
        case .invalidLLParameters: name = "Invalid LMP Parameters / Invalid LL Parameters"
        case .unspecifiedError: name = "Unspecified Error"
        case .unsupportedLLParameterValue: name = "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case .roleChangeNotAllowed: name = "Role Change Not Allowed"
        case .llResponseTimeout: name = "LMP Response Timeout / LL Response Timeout"
        case .llProcedureCollision: name = "LMP Error Transaction Collision / LL Procedure Collision"
        case .lmpPDUNotAllowed: name = "LMP PDU Not Allowed"
        case .encryptionModeNotAcceptable: name = "Encryption Mode Not Acceptable"
        case .linkKeyCannotBeChanged: name = "Link Key cannot be Changed"
        case .requestedQoSNotSupported: name = "Requested QoS Not Supported"
        case .instantPassed: name = "Instant Passed"
        case .pairingWithUnitKeyNotSupported: name = "Pairing With Unit Key Not Supported"
        case .differentTransactionCollision: name = "Different Transaction Collision"
        case .qosUnacceptableParameter: name = "QoS Unacceptable Parameter"
        case .qosRejected: name = "QoS Rejected"
        case .channelClassificationNotSupported: name = "Channel Classification Not Supported"
        case .insufficientSecurity: name = "Insufficient Security"
        case .parameterOutOfMandatoryRange: name = "Parameter Out Of Mandatory Range"
        case .roleSwitchPending: name = "Role Switch Pending"
        case .reservedSlotViolation: name = "Reserved Slot Violation"
        case .roleSwitchFailed: name = "Role Switch Failed"
        case .extendedInquiryResponseTooLarge: name = "Extended Inquiry Response Too Large"
        case .simplePairingNotSupportedByHost: name = "Secure Simple Pairing Not Supported By Host"
        case .hostBusyPairing: name = "Host Busy - Pairing"
        case .connectionRejectedNoSuitableChannel: name = "Connection Rejected due to No Suitable Channel Found"
        case .controllerBusy: name = "Controller Busy"
        case .unacceptableConnectionParameters: name = "Unacceptable Connection Parameters"
        case .advertisingTimeout: name = "Advertising Timeout"
        case .connectionTerminatedMICFailure: name = "Connection Terminated due to MIC Failure"
        case .connectionFailedToBeEstablished: name = "Connection Failed to be Established / Synchronization Timeout"
        case .coarseClockAdjustmentRejected: name = "Coarse Clock Adjustment Rejected"
        case .type0SubmapNotDefined: name = "Type0 Submap Not Defined"
        case .unknownAdvertisingIdentifier: name = "Unknown Advertising Identifier"
        case .limitReached: name = "Limit Reached"
        case .operationCancelledByHost: name = "Operation Cancelled by Host"
        case .packetTooLong: name = "Packet Too Long"
        case .other: name = "Unknown status"
        }
        return name + " (0x" + hexByte(code) + ")"
    }
}
