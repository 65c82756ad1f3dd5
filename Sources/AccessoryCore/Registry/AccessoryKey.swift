/// How the registry keys what it hears: a Bluetooth LE device by its address
/// and address type, a Wi-Fi accessory by its BSSID.
public enum AccessoryKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    case bluetooth(BluetoothDeviceIdentifier)
    case wifi(BSSID)

    /// One 64-bit word hashed instead of the case, address and type one by
    /// one: the registry hashes a key on every report, and each word fed to
    /// the hasher costs ~40 instructions. Addresses are 48 bits, so the
    /// address type and the case fit above them and equal keys hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// The key in one word, distinct for distinct keys (what `hash(into:)`
    /// feeds the hasher, and what the registry's `SlotIndex` files).
    var word: UInt64 {
        switch self {
        case .bluetooth(let device): device.address.rawValue | UInt64(device.addressType.rawValue) << 48
        case .wifi(let bssid): bssid.rawValue | 1 << 63
        }
    }

    public var description: String {
        switch self {
        case .bluetooth(let device): "bluetooth \(device)"
        case .wifi(let bssid): "wifi \(bssid)"
        }
    }
}
