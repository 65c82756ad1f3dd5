/// A rule of `DiscoveryDescriptor` that a descriptor breaks: one case per
/// rule, saying which property and why.
public enum DiscoveryDescriptorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which blob+mask pair a data error is about.
    public enum DataProperty: String, Hashable, Sendable {
        case manufacturerData = "bluetoothManufacturerData"
        case serviceData = "bluetoothServiceData"
    }

    /// No Bluetooth and no Wi-Fi property is set: it would describe nothing.
    case describesNothing
    /// Bluetooth properties without `bluetoothCompanyIdentifier` or `bluetoothServiceUUID`.
    case missingBluetoothIdentifier
    /// A company identifier or service UUID alone: ASK also wants a name, manufacturer data or service data.
    case missingBluetoothCriterion
    case emptyNameSubstring
    case invalidNamePattern(NamePatternError)
    /// A blob without its mask.
    case missingMask(DataProperty)
    /// A mask without its blob.
    case missingBlob(DataProperty)
    case blobMaskLengthMismatch(DataProperty, blobLength: Int, maskLength: Int)
    /// A zero-length blob and mask would match any data at all.
    case emptyMask(DataProperty)
    /// Manufacturer data is keyed by company: the blob needs `bluetoothCompanyIdentifier`.
    case manufacturerDataWithoutCompanyIdentifier
    /// Service data is keyed by service: the blob needs `bluetoothServiceUUID`.
    case serviceDataWithoutServiceUUID
    /// Wi-Fi properties (a BSSID) without `ssid` or `ssidPrefix`.
    case missingSSID
    case ssidAndSSIDPrefixBothSet
    /// An empty `ssid` would match every hidden network.
    case emptySSID
    case emptySSIDPrefix
    case ssidPrefixTooLong(length: Int)
    /// Outside -127...20 dBm, the range HCI and nl80211 can report.
    case minimumRSSIOutOfRange(Int)

    public static let rssiRange = -127...20

    public var description: String {
        switch self {
        case .describesNothing:
            "no Bluetooth and no Wi-Fi property is set"
        case .missingBluetoothIdentifier:
            "bluetoothCompanyIdentifier or bluetoothServiceUUID is required"
        case .missingBluetoothCriterion:
            "a name substring or pattern, manufacturer data or service data is required besides the identifier"
        case .emptyNameSubstring:
            "bluetoothNameSubstring is empty"
        case .invalidNamePattern(let error):
            "bluetoothNamePattern: \(error)"
        case .missingMask(let property):
            "\(property.rawValue)Blob is set without \(property.rawValue)Mask"
        case .missingBlob(let property):
            "\(property.rawValue)Mask is set without \(property.rawValue)Blob"
        case .blobMaskLengthMismatch(let property, let blob, let mask):
            "\(property.rawValue)Blob is \(blob) bytes but \(property.rawValue)Mask is \(mask): they must be the same length"
        case .emptyMask(let property):
            "\(property.rawValue)Blob and Mask are empty and would match anything"
        case .manufacturerDataWithoutCompanyIdentifier:
            "bluetoothManufacturerDataBlob needs bluetoothCompanyIdentifier"
        case .serviceDataWithoutServiceUUID:
            "bluetoothServiceDataBlob needs bluetoothServiceUUID"
        case .missingSSID:
            "ssid or ssidPrefix is required"
        case .ssidAndSSIDPrefixBothSet:
            "ssid and ssidPrefix are both set; use one"
        case .emptySSID:
            "ssid is empty"
        case .emptySSIDPrefix:
            "ssidPrefix is empty"
        case .ssidPrefixTooLong(let length):
            "ssidPrefix is \(length) bytes, more than an SSID's \(SSID.maximumLength)"
        case .minimumRSSIOutOfRange(let value):
            "minimumRSSI \(value) dBm is outside \(Self.rssiRange.lowerBound)...\(Self.rssiRange.upperBound)"
        }
    }
}
