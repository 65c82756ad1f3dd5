import AccessoryCore
import AccessoryPlatform
import AccessoryWire

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
        case Session1.activated.name: return .activated(accessories: try message.readObjectPaths())
        case Session1.invalidated.name: return .invalidated
        case Session1.pickerDidPresent.name: return .pickerDidPresent
        case Session1.accessoryDiscovered.name:
            let found = try WireDiscoveredAccessory(from: PlainArguments(message))
            return .accessoryDiscovered(DiscoveredAccessory(
                candidate: found.candidate, name: found.name, identity: found.identity, rssi: BusRSSI.decode(found.rssi),
                advertisement: found.advertisement))
        case Session1.accessoryAdded.name: return .accessoryAdded(try message.readObjectPath())
        case Session1.accessoryChanged.name: return .accessoryChanged(try message.readObjectPath())
        case Session1.accessoryRemoved.name: return .accessoryRemoved(try message.readObjectPath())
        case Session1.pickerSetupRename.name: return .pickerSetupRename(try message.readObjectPath())
        case Session1.pickerSetupPairing.name: return .pickerSetupPairing(try message.readObjectPath())
        case Session1.pickerSetupBridging.name: return .pickerSetupBridging(try message.readObjectPath())
        case Session1.pickerSetupFailed.name:
            return .pickerSetupFailed(error: try message.readString(), message: try message.readString())
        case Session1.pickerDidDismiss.name:
            return .pickerDidDismiss(error: try message.readString(), message: try message.readString())
        case Session1.migrationComplete.name: return .migrationComplete
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
