import AccessoryCore
import AccessoryPlatform

/// One `org.bluez.Agent1` method call, read and checked (doc/org.bluez.Agent.rst).
/// Everything in it comes from the bus: the member and signature must be
/// the documented ones, the device a Device1 path of bluetoothd's exact
/// form, a passkey at most 999999, a count of typed digits at most 6.
enum BluezAgentRequest: Hashable {
    case release
    case cancel
    /// A prompt for `device`'s pairing.
    case prompt(device: String, PairingPrompt)
    /// DisplayPasskey again, counting the digits typed on the accessory: nothing new to show.
    case typed(device: String)
    /// A request this agent never grants (PIN codes are BR/EDR's; service
    /// authorization is the default agent's business).
    case refused(String)

    init(_ call: BusMessage) throws(BusError) {
        let member = call.member ?? ""
        let expected: String? = switch member {
        case "Release", "Cancel": ""
        case "RequestPinCode", "RequestPasskey", "RequestAuthorization": "o"
        case "DisplayPinCode": "os"
        case "RequestConfirmation": "ou"
        case "DisplayPasskey": "ouq"
        case "AuthorizeService": "os"
        default: nil
        }
        guard let expected else { throw .invalidArguments("no such Agent1 method") }
        guard call.signature == expected else { throw .invalidArguments("\(member) takes (\(expected))") }
        switch member {
        case "Release": self = .release
        case "Cancel": self = .cancel
        case "RequestPinCode", "DisplayPinCode": self = .refused("PIN codes are not used for LE pairing")
        case "AuthorizeService": self = .refused("accessoryd authorizes no services")
        default:
            let device = try call.readObjectPath()
            guard BluezObjectPath.device(device) != nil else { throw .invalidArguments("not a bluetoothd device path") }
            switch member {
            case "RequestAuthorization": self = .prompt(device: device, .justWorks)
            case "RequestPasskey": self = .prompt(device: device, .passkeyEntry)
            case "RequestConfirmation":
                guard let passkey = PairingPasskey(try call.readUInt32()) else { throw .invalidArguments("passkey above 999999") }
                self = .prompt(device: device, .numericComparison(passkey))
            default:  // DisplayPasskey
                guard let passkey = PairingPasskey(try call.readUInt32()) else { throw .invalidArguments("passkey above 999999") }
                let entered = try call.readUInt16()
                guard entered <= 6 else { throw .invalidArguments("more than six digits typed") }
                self = entered == 0 ? .prompt(device: device, .passkeyDisplay(passkey)) : .typed(device: device)
            }
        }
    }
}
