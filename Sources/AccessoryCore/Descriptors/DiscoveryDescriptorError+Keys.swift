/// The same rules in the words of the keys an app sends (`a{ss}` over the
/// bus, a descriptor file's lines: `ManufacturerDataMask`, `SSIDPrefix`),
/// which is what a developer reading accessoryd's answer can act on;
/// `description` keeps AccessorySetupKit's property names for Swift callers.
extension DiscoveryDescriptorError {
    public var keyDescription: String {
        switch self {
        case .describesNothing:
            "no Bluetooth and no Wi-Fi key is given (ServiceUUID, CompanyIdentifier, SSID, SSIDPrefix…)"
        case .missingBluetoothIdentifier:
            "CompanyIdentifier or ServiceUUID is required"
        case .missingBluetoothCriterion:
            "NameSubstring, NamePattern, ManufacturerDataBlob or ServiceDataBlob is required besides CompanyIdentifier or ServiceUUID"
        case .emptyNameSubstring:
            "NameSubstring is empty"
        case .invalidNamePattern(let error):
            "NamePattern: \(error)"
        case .missingMask(let property):
            "\(Self.key(property))Blob is given without \(Self.key(property))Mask"
        case .missingBlob(let property):
            "\(Self.key(property))Mask is given without \(Self.key(property))Blob"
        case .blobMaskLengthMismatch(let property, let blob, let mask):
            "\(Self.key(property))Blob is \(blob) bytes but \(Self.key(property))Mask is \(mask): they must be the same length"
        case .emptyMask(let property):
            "\(Self.key(property))Blob and \(Self.key(property))Mask are empty and would match anything"
        case .manufacturerDataWithoutCompanyIdentifier:
            "ManufacturerDataBlob needs CompanyIdentifier"
        case .serviceDataWithoutServiceUUID:
            "ServiceDataBlob needs ServiceUUID"
        case .missingSSID:
            "SSID or SSIDPrefix is required"
        case .ssidAndSSIDPrefixBothSet:
            "SSID and SSIDPrefix are both given; use one"
        case .emptySSID:
            "SSID is empty"
        case .emptySSIDPrefix:
            "SSIDPrefix is empty"
        case .ssidPrefixTooLong(let length):
            "SSIDPrefix is \(length) bytes, more than an SSID's \(SSID.maximumLength)"
        case .minimumRSSIOutOfRange(let value):
            "MinimumRSSI \(value) dBm is outside \(Self.rssiRange.lowerBound)...\(Self.rssiRange.upperBound)"
        }
    }

    private static func key(_ property: DataProperty) -> String {
        switch property {
        case .manufacturerData: "ManufacturerData"
        case .serviceData: "ServiceData"
        }
    }
}
