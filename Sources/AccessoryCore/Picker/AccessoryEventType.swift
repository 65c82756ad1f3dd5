/// `ASAccessoryEventType`, with the same names; on the bus each is a signal
/// of the same name with an upper-case first letter (`serviceRestarted`
/// aside: see `signalled`).
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
    /// Not ASK's and never a signal: the client library's own, when the
    /// service left the bus and came back (a restart, an upgrade) and the
    /// session was opened and activated again with the new one.
    case serviceRestarted

    /// The types accessoryd sends as `Session1` signals.
    public static var signalled: [AccessoryEventType] { allCases.filter { $0 != .unknown && $0 != .serviceRestarted } }

    /// The signal's name: `AccessoryAdded`.
    public var signalName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
