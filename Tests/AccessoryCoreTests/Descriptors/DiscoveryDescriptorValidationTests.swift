import Testing
@testable import AccessoryCore

/// One row per descriptor rule: the descriptor and exactly the errors it must produce.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    var label: String
    var descriptor: DiscoveryDescriptor
    var errors: [DiscoveryDescriptorError]
    var testDescription: String { label }
}

private let uuid = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!

@Suite struct DiscoveryDescriptorValidationTests {
    static let valid: [ValidationCase] = [
        .init(label: "company + name", descriptor: .init(bluetoothCompanyIdentifier: 0x004C, bluetoothNameSubstring: "Acme"), errors: []),
        .init(label: "service + name", descriptor: .init(bluetoothServiceUUID: uuid, bluetoothNameSubstring: "Acme"), errors: []),
        .init(label: "company + manufacturer data",
              descriptor: .init(bluetoothCompanyIdentifier: 0x004C, bluetoothManufacturerDataBlob: [0x02, 0x15], bluetoothManufacturerDataMask: [0xFF, 0xFF]), errors: []),
        .init(label: "service + service data",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothServiceDataBlob: [0x40], bluetoothServiceDataMask: [0xE0]), errors: []),
        .init(label: "service + name pattern", descriptor: .init(bluetoothServiceUUID: uuid, bluetoothNamePattern: "Acme-[0-9]*"), errors: []),
        .init(label: "immediate, options, minimum RSSI",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNameSubstring: "x", bluetoothRange: .immediate,
                                supportedOptions: [.bluetoothPairingLE, .bluetoothHID], minimumRSSI: -90), errors: []),
        .init(label: "ssid", descriptor: .init(ssid: SSID("Acme Setup")), errors: []),
        .init(label: "ssid of non-UTF-8 bytes", descriptor: .init(ssid: SSID(bytes: [0x41, 0xFF, 0x00])), errors: []),
        .init(label: "ssid prefix of 32 bytes", descriptor: .init(ssidPrefix: Array(repeating: 0x41, count: 32)), errors: []),
        .init(label: "ssid prefix + BSSID mask",
              descriptor: .init(ssidPrefix: Array("ACME-".utf8), bssid: BSSIDFilter(bssid: HardwareAddress("AA:BB:CC:00:00:00")!, mask: HardwareAddress("FF:FF:FF:00:00:00")!)), errors: []),
        .init(label: "Bluetooth and Wi-Fi together",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNameSubstring: "A", ssidPrefix: [0x41]), errors: []),
    ]

    static let invalid: [ValidationCase] = [
        .init(label: "nothing set", descriptor: .init(), errors: [.describesNothing]),
        .init(label: "only range and compare options",
              descriptor: .init(bluetoothNameSubstringCompareOptions: .caseInsensitive, bluetoothRange: .immediate), errors: [.describesNothing]),
        .init(label: "name without company or service", descriptor: .init(bluetoothNameSubstring: "Acme"), errors: [.missingBluetoothIdentifier]),
        .init(label: "company alone", descriptor: .init(bluetoothCompanyIdentifier: 0x004C), errors: [.missingBluetoothCriterion]),
        .init(label: "service alone", descriptor: .init(bluetoothServiceUUID: uuid), errors: [.missingBluetoothCriterion]),
        .init(label: "empty name substring", descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNameSubstring: ""), errors: [.emptyNameSubstring]),
        .init(label: "unterminated pattern set", descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNamePattern: "Acme[0-9"),
              errors: [.invalidNamePattern(.unterminatedSet(offset: 4))]),
        .init(label: "empty pattern", descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNamePattern: ""), errors: [.invalidNamePattern(.empty)]),
        .init(label: "manufacturer blob without mask",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothManufacturerDataBlob: [1]), errors: [.missingMask(.manufacturerData)]),
        .init(label: "manufacturer mask without blob",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothManufacturerDataMask: [1]), errors: [.missingBlob(.manufacturerData)]),
        .init(label: "manufacturer blob and mask of different length",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothManufacturerDataBlob: [1, 2], bluetoothManufacturerDataMask: [0xFF]),
              errors: [.blobMaskLengthMismatch(.manufacturerData, blobLength: 2, maskLength: 1)]),
        .init(label: "empty manufacturer mask",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothManufacturerDataBlob: [], bluetoothManufacturerDataMask: []),
              errors: [.emptyMask(.manufacturerData)]),
        .init(label: "manufacturer data without company",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothManufacturerDataBlob: [1], bluetoothManufacturerDataMask: [1]),
              errors: [.manufacturerDataWithoutCompanyIdentifier]),
        .init(label: "service blob without mask",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothServiceDataBlob: [1]), errors: [.missingMask(.serviceData)]),
        .init(label: "service mask without blob",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothServiceDataMask: [1]), errors: [.missingBlob(.serviceData)]),
        .init(label: "service blob and mask of different length",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothServiceDataBlob: [1], bluetoothServiceDataMask: [1, 2, 3]),
              errors: [.blobMaskLengthMismatch(.serviceData, blobLength: 1, maskLength: 3)]),
        .init(label: "empty service mask",
              descriptor: .init(bluetoothServiceUUID: uuid, bluetoothServiceDataBlob: [], bluetoothServiceDataMask: []),
              errors: [.emptyMask(.serviceData)]),
        .init(label: "service data without service",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothServiceDataBlob: [1], bluetoothServiceDataMask: [1]),
              errors: [.serviceDataWithoutServiceUUID]),
        .init(label: "ssid and prefix both", descriptor: .init(ssid: SSID("A"), ssidPrefix: [0x41]), errors: [.ssidAndSSIDPrefixBothSet]),
        .init(label: "empty prefix", descriptor: .init(ssidPrefix: []), errors: [.emptySSIDPrefix]),
        .init(label: "prefix longer than 32 bytes", descriptor: .init(ssidPrefix: Array(repeating: 0x41, count: 33)),
              errors: [.ssidPrefixTooLong(length: 33)]),
        .init(label: "empty ssid", descriptor: .init(ssid: SSID(bytes: [])), errors: [.emptySSID]),
        .init(label: "BSSID without ssid", descriptor: .init(bssid: BSSIDFilter(bssid: HardwareAddress("02:00:00:00:00:01")!)),
              errors: [.missingSSID]),
        .init(label: "minimum RSSI too low", descriptor: .init(ssid: SSID("A"), minimumRSSI: -128), errors: [.minimumRSSIOutOfRange(-128)]),
        .init(label: "minimum RSSI too high", descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNameSubstring: "x", minimumRSSI: 21),
              errors: [.minimumRSSIOutOfRange(21)]),
        .init(label: "several rules at once, all reported",
              descriptor: .init(bluetoothNameSubstring: "", bluetoothManufacturerDataBlob: [1], ssid: SSID("A"), ssidPrefix: []),
              errors: [.missingBluetoothIdentifier, .emptyNameSubstring, .missingMask(.manufacturerData),
                       .manufacturerDataWithoutCompanyIdentifier, .ssidAndSSIDPrefixBothSet, .emptySSIDPrefix]),
    ]

    @Test(arguments: valid + invalid)
    func violations(_ row: ValidationCase) {
        #expect(row.descriptor.violations == row.errors)
    }

    @Test(arguments: invalid)
    func validateThrowsTheFirstViolation(_ row: ValidationCase) {
        #expect(throws: row.errors[0]) { try row.descriptor.validate() }
    }

    @Test(arguments: invalid)
    func indexRefusesInvalidDescriptors(_ row: ValidationCase) {
        var index = MatchingIndex()
        #expect(throws: row.errors[0]) { try index.insert(row.descriptor, id: 1, app: "a") }
        #expect(index.isEmpty)
    }

    @Test func everyErrorSaysWhichPropertyAndWhy() {
        let error = DiscoveryDescriptorError.blobMaskLengthMismatch(.manufacturerData, blobLength: 2, maskLength: 1)
        #expect(error.description == "bluetoothManufacturerDataBlob is 2 bytes but bluetoothManufacturerDataMask is 1: they must be the same length")
        #expect(DiscoveryDescriptorError.ssidPrefixTooLong(length: 33).description == "ssidPrefix is 33 bytes, more than an SSID's 32")
    }
}
