import AccessoryCore
import AccessoryPlatform

/// A signal of `org.accessoryagent.Session1` with its arguments read, before
/// the accessories it names are looked up.
enum SessionSignal: Hashable, Sendable {
    case activated(accessories: [String])
    case invalidated
    case pickerDidPresent
    case accessoryDiscovered(DiscoveredAccessory)
    case accessoryAdded(String)
    case accessoryChanged(String)
    case accessoryRemoved(String)
    case pickerSetupRename(String)
    case pickerSetupPairing(String)
    case pickerSetupBridging(String)
    case pickerSetupFailed(error: String, message: String)
    case pickerDidDismiss(error: String, message: String)
    case migrationComplete

    /// Reads `member`'s arguments from `message`; nil for a member this
    /// library does not know (a newer agent's), which is skipped.
    static func read(_ member: String, from message: BusMessage) throws(BusError) -> SessionSignal? {
        switch member {
        case "Activated": return .activated(accessories: try message.readObjectPaths())
        case "Invalidated": return .invalidated
        case "PickerDidPresent": return .pickerDidPresent
        case "AccessoryDiscovered":
            let candidate = try message.readUInt32()
            let name = try message.readString()
            let identity = try message.readString()
            let rssi = try message.readInt32()
            let advertisement = try message.readBytes()
            return .accessoryDiscovered(DiscoveredAccessory(
                candidate: candidate, name: name, identity: identity, rssi: BusRSSI.decode(rssi), advertisement: advertisement))
        case "AccessoryAdded": return .accessoryAdded(try message.readObjectPath())
        case "AccessoryChanged": return .accessoryChanged(try message.readObjectPath())
        case "AccessoryRemoved": return .accessoryRemoved(try message.readObjectPath())
        case "PickerSetupRename": return .pickerSetupRename(try message.readObjectPath())
        case "PickerSetupPairing": return .pickerSetupPairing(try message.readObjectPath())
        case "PickerSetupBridging": return .pickerSetupBridging(try message.readObjectPath())
        case "PickerSetupFailed":
            return .pickerSetupFailed(error: try message.readString(), message: try message.readString())
        case "PickerDidDismiss":
            return .pickerDidDismiss(error: try message.readString(), message: try message.readString())
        case "MigrationComplete": return .migrationComplete
        default: return nil
        }
    }

    var eventType: AccessoryEvent.EventType {
        switch self {
        case .activated: .activated
        case .invalidated: .invalidated
        case .pickerDidPresent: .pickerDidPresent
        case .accessoryDiscovered: .accessoryDiscovered
        case .accessoryAdded: .accessoryAdded
        case .accessoryChanged: .accessoryChanged
        case .accessoryRemoved: .accessoryRemoved
        case .pickerSetupRename: .pickerSetupRename
        case .pickerSetupPairing: .pickerSetupPairing
        case .pickerSetupBridging: .pickerSetupBridging
        case .pickerSetupFailed: .pickerSetupFailed
        case .pickerDidDismiss: .pickerDidDismiss
        case .migrationComplete: .migrationComplete
        }
    }

    /// The accessory object the event is about, to be read from the bus.
    var accessoryPath: String? {
        switch self {
        case .accessoryAdded(let path), .accessoryChanged(let path), .accessoryRemoved(let path),
            .pickerSetupRename(let path), .pickerSetupPairing(let path), .pickerSetupBridging(let path):
            path
        default: nil
        }
    }

    /// The event, given the accessory it names (already read).
    func event(accessory: Accessory?) -> AccessoryEvent {
        switch self {
        case .accessoryDiscovered(let found):
            AccessoryEvent(.accessoryDiscovered, discoveredAccessory: found)
        case .pickerSetupFailed(let error, let message), .pickerDidDismiss(let error, let message):
            AccessoryEvent(eventType, error: AccessorySetupError(signalError: error, message: message))
        default:
            AccessoryEvent(eventType, accessory: accessory)
        }
    }
}
