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

    public static let interface = BusInterface(
        BusNames.session,
        methods: [
            activate, invalidate, showPicker, updatePicker, finishPickerDiscovery, dismissPicker, finishAuthorization,
            failAuthorization, updateAuthorization, removeAccessory, renameAccessory, migrate, openBluetoothChannel,
            joinHotspot, leaveHotspot, takeEvents, observePresence,
        ],
        signals: [
            activated, invalidated, pickerDidPresent, accessoryDiscovered, accessoryAdded, accessoryChanged,
            accessoryRemoved, pickerSetupRename, pickerSetupPairing, pickerSetupBridging, pickerSetupFailed,
            pickerDidDismiss, migrationComplete, hotspotLeft,
        ],
        properties: [app, state])
}
