/// How the registry keys what it hears: a Bluetooth LE device by its address
/// and address type, a Wi-Fi accessory by its BSSID.
public enum AccessoryKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    case bluetooth(BluetoothDeviceIdentifier)
    case wifi(BSSID)

    public var description: String {
        switch self {
        case .bluetooth(let device): "bluetooth \(device)"
        case .wifi(let bssid): "wifi \(bssid)"
        }
    }
}
