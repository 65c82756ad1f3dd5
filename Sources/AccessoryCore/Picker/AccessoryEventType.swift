/// `ASAccessoryEventType`, with the same names; on the bus each is a signal
/// of the same name with an upper-case first letter.
public enum AccessoryEventType: String, Hashable, Sendable, CaseIterable {
    case unknown
    case activated
    case invalidated
    case migrationComplete
    case accessoryAdded
    case accessoryRemoved
    case accessoryChanged
    case accessoryDiscovered
    case pickerDidPresent
    case pickerDidDismiss
    case pickerSetupBridging
    case pickerSetupPairing
    case pickerSetupFailed
    case pickerSetupRename

    /// The signal's name: `AccessoryAdded`.
    public var signalName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
