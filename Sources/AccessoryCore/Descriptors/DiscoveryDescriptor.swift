/// What an app looks for: AccessorySetupKit's `ASDiscoveryDescriptor`, with
/// the same properties and rules, plus a few from Android's companion device
/// filters and Home Assistant's matchers (marked "beyond ASK").
///
/// A descriptor may describe a Bluetooth accessory, a Wi-Fi accessory, or one
/// that does both; each part is matched against what its radio hears.
/// The rules (checked by `validate()`, each with its own error):
/// - Bluetooth needs `bluetoothCompanyIdentifier` or `bluetoothServiceUUID`,
///   plus at least one of a name (substring or pattern), manufacturer data
///   blob+mask, service data blob+mask. Blob and mask have equal, non-zero
///   length; manufacturer data belongs to the company identifier and service
///   data to the service UUID, so each needs its key.
/// - Wi-Fi needs `ssid` or `ssidPrefix`, never both; neither may be empty and
///   the prefix is at most 32 octets.
/// A property left nil does not constrain; every property set must match.
public struct DiscoveryDescriptor: Hashable, Sendable {
    // Bluetooth, as in AccessorySetupKit.
    public var bluetoothCompanyIdentifier: UInt16?
    /// Matches when the UUID is in the advertised service lists or keys service data.
    public var bluetoothServiceUUID: BluetoothUUID?
    public var bluetoothNameSubstring: String?
    public var bluetoothNameSubstringCompareOptions: NameCompareOptions
    public var bluetoothManufacturerDataBlob: [UInt8]?
    public var bluetoothManufacturerDataMask: [UInt8]?
    public var bluetoothServiceDataBlob: [UInt8]?
    public var bluetoothServiceDataMask: [UInt8]?
    public var bluetoothRange: BluetoothRange
    public var supportedOptions: AccessorySupportOptions

    // Bluetooth, beyond ASK.
    /// A glob over the whole name (see `NamePattern`); counts as a name criterion.
    public var bluetoothNamePattern: String?

    // Wi-Fi, as in AccessorySetupKit.
    public var ssid: SSID?
    /// Raw octets, since a prefix may cut a UTF-8 character in two.
    public var ssidPrefix: [UInt8]?

    // Wi-Fi, beyond ASK.
    public var bssid: BSSIDFilter?

    // Both radios, beyond ASK.
    /// The weakest signal accepted, in dBm (RSSI for Bluetooth, signal for Wi-Fi).
    public var minimumRSSI: Int?

    public init(
        bluetoothCompanyIdentifier: UInt16? = nil,
        bluetoothServiceUUID: BluetoothUUID? = nil,
        bluetoothNameSubstring: String? = nil,
        bluetoothNameSubstringCompareOptions: NameCompareOptions = [],
        bluetoothManufacturerDataBlob: [UInt8]? = nil,
        bluetoothManufacturerDataMask: [UInt8]? = nil,
        bluetoothServiceDataBlob: [UInt8]? = nil,
        bluetoothServiceDataMask: [UInt8]? = nil,
        bluetoothRange: BluetoothRange = .default,
        supportedOptions: AccessorySupportOptions = [],
        bluetoothNamePattern: String? = nil,
        ssid: SSID? = nil,
        ssidPrefix: [UInt8]? = nil,
        bssid: BSSIDFilter? = nil,
        minimumRSSI: Int? = nil
    ) {
        self.bluetoothCompanyIdentifier = bluetoothCompanyIdentifier
        self.bluetoothServiceUUID = bluetoothServiceUUID
        self.bluetoothNameSubstring = bluetoothNameSubstring
        self.bluetoothNameSubstringCompareOptions = bluetoothNameSubstringCompareOptions
        self.bluetoothManufacturerDataBlob = bluetoothManufacturerDataBlob
        self.bluetoothManufacturerDataMask = bluetoothManufacturerDataMask
        self.bluetoothServiceDataBlob = bluetoothServiceDataBlob
        self.bluetoothServiceDataMask = bluetoothServiceDataMask
        self.bluetoothRange = bluetoothRange
        self.supportedOptions = supportedOptions
        self.bluetoothNamePattern = bluetoothNamePattern
        self.ssid = ssid
        self.ssidPrefix = ssidPrefix
        self.bssid = bssid
        self.minimumRSSI = minimumRSSI
    }

    /// Whether any Bluetooth property is set, so the Bluetooth rules apply.
    /// The range and compare options only qualify other properties and do not count.
    public var describesBluetooth: Bool {
        bluetoothCompanyIdentifier != nil || bluetoothServiceUUID != nil || bluetoothNameSubstring != nil
            || bluetoothNamePattern != nil || bluetoothManufacturerDataBlob != nil
            || bluetoothManufacturerDataMask != nil || bluetoothServiceDataBlob != nil
            || bluetoothServiceDataMask != nil
    }

    /// Whether any Wi-Fi property is set, so the Wi-Fi rules apply.
    public var describesWiFi: Bool { ssid != nil || ssidPrefix != nil || bssid != nil }
}
