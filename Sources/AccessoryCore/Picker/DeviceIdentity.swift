/// What makes a candidate one unique device: a Bluetooth LE identity, or a
/// hotspot's SSID (one hotspot may answer from several BSSIDs).
public enum DeviceIdentity: Hashable, Sendable, CustomStringConvertible {
    case bluetooth(BluetoothDeviceIdentifier)
    case wifi(SSID)

    public var kind: String {
        switch self {
        case .bluetooth: "bluetooth"
        case .wifi: "wifi"
        }
    }

    /// `AA:BB:CC:DD:EE:FF/random`, or the SSID as text (`\xNN` for other octets).
    public var description: String {
        switch self {
        case .bluetooth(let device): "\(device)"
        case .wifi(let ssid): SSIDText.escaped(ssid.bytes)
        }
    }

    /// The identity a grant records.
    public init?(_ grant: Grant) {
        if let bluetooth = grant.bluetooth { self = .bluetooth(bluetooth) }
        else if let ssid = grant.ssid { self = .wifi(ssid) }
        else { return nil }
    }

    /// `AA:BB:CC:DD:EE:FF` (public) or `AA:BB:CC:DD:EE:FF/random`.
    public static func bluetooth(parsing text: String) -> BluetoothDeviceIdentifier? {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let address = parts.first.flatMap({ HardwareAddress($0) }) else { return nil }
        let type: BluetoothAddressType
        switch parts.count == 2 ? String(parts[1]) : "public" {
        case "public": type = .public
        case "random": type = .random
        default: return nil
        }
        return BluetoothDeviceIdentifier(address: address, addressType: type)
    }
}
