/// `org.accessoryagent.Accessory1` at `/org/accessoryagent/accessory/ID`:
/// an accessory granted to an app. A property without an annotation emits
/// `PropertiesChanged` when it changes (D-Bus's default); `const` ones never
/// change; `RSSI` changes with every advertisement and is sent with
/// `Present` and in `Advertisement`, not on each change, so it says `false`.
public enum Accessory1 {
    public static let advertisement = BusSignal("Advertisement", [BusArgument("rssi", .int32), BusArgument("data", .bytes)])

    public static let displayName = BusProperty("DisplayName", .string)
    /// `unauthorized`, `awaitingAuthorization`, `authorized`.
    public static let state = BusProperty("State", .string)
    public static let app = BusProperty("App", .string, emitsChangedSignal: .const)
    public static let bluetoothAddress = BusProperty("BluetoothAddress", .string, emitsChangedSignal: .const)
    public static let bluetoothAddressType = BusProperty("BluetoothAddressType", .string, emitsChangedSignal: .const)
    public static let ssid = BusProperty("SSID", .bytes)
    public static let descriptor = BusProperty("Descriptor", .pairs)
    public static let bridgingIdentifier = BusProperty("BridgingIdentifier", .string)
    public static let present = BusProperty("Present", .boolean)
    /// dBm; `BusRSSI.unknown` when not known.
    public static let rssi = BusProperty("RSSI", .int32, emitsChangedSignal: .false)

    public static let interface = BusInterface(
        BusNames.accessory, signals: [advertisement],
        properties: [displayName, state, app, bluetoothAddress, bluetoothAddressType, ssid, descriptor, bridgingIdentifier, present, rssi])
}
