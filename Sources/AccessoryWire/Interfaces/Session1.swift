import AccessoryCore

/// `org.accessoryagent.Session1` at `/org/accessoryagent/session/N`: what an app does with its session.
public enum Session1 {
    private static let accessory = BusArgument("accessory", .objectPath)

    public static let activate = BusMethod("Activate", out: [BusArgument("accessories", .objectPaths)])
    public static let invalidate = BusMethod("Invalidate")
    public static let showPicker = BusMethod("ShowPicker", in: [
        BusArgument("items", .array(WireDisplayItem.type)), BusArgument("settings", .pairs),
    ])
    public static let updatePicker = BusMethod("UpdatePicker", in: [BusArgument("shown", .array(WireShownCandidate.type))])
    public static let finishPickerDiscovery = BusMethod("FinishPickerDiscovery")
    public static let dismissPicker = BusMethod("DismissPicker")
    public static let finishAuthorization = BusMethod("FinishAuthorization", in: [accessory, BusArgument("settings", .pairs)])
    public static let failAuthorization = BusMethod("FailAuthorization", in: [accessory])
    public static let updateAuthorization = BusMethod("UpdateAuthorization", in: [accessory, BusArgument("descriptor", .pairs)])
    public static let removeAccessory = BusMethod("RemoveAccessory", in: [accessory])
    public static let renameAccessory = BusMethod("RenameAccessory", in: [
        accessory, BusArgument("name", .string), BusArgument("options", .strings),
    ])
    public static let migrate = BusMethod("Migrate", in: [BusArgument("items", .array(WireMigrationItem.type))])
    public static let openBluetoothChannel = BusMethod(
        "OpenBluetoothChannel", in: [accessory, BusArgument("psm", .uint16)], out: [BusArgument("socket", .fileDescriptor)])
    public static let joinHotspot = BusMethod(
        "JoinHotspot", in: [accessory, BusArgument("passphrase", .string)],
        out: [BusArgument("result", .string), BusArgument("interface", .string), BusArgument("address", .string)])
    public static let leaveHotspot = BusMethod("LeaveHotspot", in: [accessory])
    /// Not an AccessorySetupKit method: wake the app (its manifest's `WakeSocket=`) when the accessory appears.
    public static let observePresence = BusMethod("ObservePresence", in: [accessory, BusArgument("observe", .boolean)])
    public static let takeEvents = BusMethod("TakeEvents", out: [BusArgument("events", .array(WireQueuedEvent.type))])

    private static let error = [BusArgument("error", .string), BusArgument("message", .string)]

    public static let activated = BusSignal("Activated", [BusArgument("accessories", .objectPaths)])
    public static let invalidated = BusSignal("Invalidated")
    public static let pickerDidPresent = BusSignal("PickerDidPresent")
    public static let accessoryDiscovered = BusSignal("AccessoryDiscovered", [
        BusArgument("candidate", .uint32), BusArgument("name", .string), BusArgument("identity", .string),
        BusArgument("rssi", .int32), BusArgument("advertisement", .bytes),
    ])
    public static let accessoryAdded = BusSignal("AccessoryAdded", [accessory])
    public static let accessoryChanged = BusSignal("AccessoryChanged", [accessory])
    public static let accessoryRemoved = BusSignal("AccessoryRemoved", [accessory])
    public static let pickerSetupRename = BusSignal("PickerSetupRename", [accessory])
    public static let pickerSetupPairing = BusSignal("PickerSetupPairing", [accessory])
    public static let pickerSetupBridging = BusSignal("PickerSetupBridging", [accessory])
    public static let pickerSetupFailed = BusSignal("PickerSetupFailed", error)
    public static let pickerDidDismiss = BusSignal("PickerDidDismiss", error)
    public static let migrationComplete = BusSignal("MigrationComplete")
    /// Not an AccessorySetupKit event: accessoryd ended the session's hotspot join.
    public static let hotspotLeft = BusSignal("HotspotLeft", [accessory, BusArgument("reason", .string)])

    public static let app = BusProperty("App", .string, emitsChangedSignal: .const)
    /// `new`, `active`, `invalidated`.
    public static let state = BusProperty("State", .string)

    /// The interface's methods, listed once, in introspection's order; the
    /// daemon's handler switches over them with no default (see `Manager1.Method`).
    public enum Method: CaseIterable, Sendable {
        case activate, invalidate, showPicker, updatePicker, finishPickerDiscovery, dismissPicker, finishAuthorization
        case failAuthorization, updateAuthorization, removeAccessory, renameAccessory, migrate, openBluetoothChannel
        case joinHotspot, leaveHotspot, takeEvents, observePresence

        public var declaration: BusMethod {
            switch self {
            case .activate: Session1.activate
            case .invalidate: Session1.invalidate
            case .showPicker: Session1.showPicker
            case .updatePicker: Session1.updatePicker
            case .finishPickerDiscovery: Session1.finishPickerDiscovery
            case .dismissPicker: Session1.dismissPicker
            case .finishAuthorization: Session1.finishAuthorization
            case .failAuthorization: Session1.failAuthorization
            case .updateAuthorization: Session1.updateAuthorization
            case .removeAccessory: Session1.removeAccessory
            case .renameAccessory: Session1.renameAccessory
            case .migrate: Session1.migrate
            case .openBluetoothChannel: Session1.openBluetoothChannel
            case .joinHotspot: Session1.joinHotspot
            case .leaveHotspot: Session1.leaveHotspot
            case .takeEvents: Session1.takeEvents
            case .observePresence: Session1.observePresence
            }
        }

        /// The method a call names; nil for any other member.
        public init?(member: String?) {
            guard let found = Self.allCases.first(where: { $0.declaration.name == member }) else { return nil }
            self = found
        }
    }

    /// The signal an event of `type` is sent as; nil for the client
    /// library's own types. No default: a new event type needs its signal.
    public static func signal(for type: AccessoryEventType) -> BusSignal? {
        switch type {
        case .unknown, .serviceRestarted: nil
        case .activated: activated
        case .invalidated: invalidated
        case .migrationComplete: migrationComplete
        case .accessoryAdded: accessoryAdded
        case .accessoryRemoved: accessoryRemoved
        case .accessoryChanged: accessoryChanged
        case .accessoryDiscovered: accessoryDiscovered
        case .pickerDidPresent: pickerDidPresent
        case .pickerDidDismiss: pickerDidDismiss
        case .pickerSetupBridging: pickerSetupBridging
        case .pickerSetupPairing: pickerSetupPairing
        case .pickerSetupFailed: pickerSetupFailed
        case .pickerSetupRename: pickerSetupRename
        }
    }

    public static let interface = BusInterface(
        BusNames.session,
        methods: Method.allCases.map(\.declaration),
        signals: [
            activated, invalidated, pickerDidPresent, accessoryDiscovered, accessoryAdded, accessoryChanged,
            accessoryRemoved, pickerSetupRename, pickerSetupPairing, pickerSetupBridging, pickerSetupFailed,
            pickerDidDismiss, migrationComplete, hotspotLeft,
        ],
        properties: [app, state])
}
