import AccessoryCore
import AccessoryPlatform
import AccessoryWire

/// Why an administrator's command failed, worded for the administrator:
/// the daemon's own errors by their short AccessorySetupKit name.
enum AdminError: Error, Equatable, CustomStringConvertible {
    /// Nobody owns `org.accessoryagent` on the bus.
    case notRunning
    /// The bus or the daemon refused the call: Admin1 is for root and the administrator group.
    case permissionDenied
    /// The daemon answers, but not this member: an older accessoryd.
    case notSupported(member: String)
    case cannotConnect(address: String?, reason: String)
    /// An error the daemon returned: the last component of its name
    /// (`invalidRequest`) and its message.
    case daemon(code: String, message: String)
    case unreadableReply(member: String, reason: String)
    /// A failure of the command itself (bad input in `pick`, end of input).
    case command(String)

    init(_ error: BusError, member: String) {
        switch error.name {
        case BusErrorNames.serviceUnknown, BusErrorNames.nameHasNoOwner:
            self = .notRunning
        case BusErrorNames.accessDenied:
            self = .permissionDenied
        case BusErrorNames.unknownMethod, BusErrorNames.unknownInterface, BusErrorNames.unknownObject:
            self = .notSupported(member: member)
        default:
            let code = error.name.split(separator: ".").last.map(String.init) ?? error.name
            self = .daemon(code: code.isEmpty ? "error" : code, message: error.message)
        }
    }

    var description: String {
        switch self {
        case .notRunning: "accessoryd is not running"
        case .permissionDenied:
            "permission denied: run as root or as a member of group \(BusNames.administratorGroup)"
        case .notSupported(let member):
            "accessoryd does not offer \(AdminClient.interface).\(member); is it older than accessoryctl?"
        case .cannotConnect(let address, let reason):
            "cannot connect to \(address.map { "the bus at \($0)" } ?? "the system bus"): \(reason)"
        case .daemon(let code, let message): message.isEmpty ? code : "\(code): \(message)"
        case .unreadableReply(let member, let reason): "unexpected reply to \(member): \(reason)"
        case .command(let text): text
        }
    }
}
