import AccessoryCore

/// The attribute types GATT builds its database from (Bluetooth Core Spec
/// Vol 3 Part G §3; Assigned Numbers, "GATT Declarations").
public enum GATTAttributeType {
    public static let primaryService = BluetoothUUID(uuid16: 0x2800)
    public static let secondaryService = BluetoothUUID(uuid16: 0x2801)
    public static let characteristic = BluetoothUUID(uuid16: 0x2803)
}
