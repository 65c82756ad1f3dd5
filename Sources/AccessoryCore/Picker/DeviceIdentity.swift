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
}
