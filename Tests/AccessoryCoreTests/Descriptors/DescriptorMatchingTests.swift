import Testing
@testable import AccessoryCore

/// One row: a descriptor, what was heard, and whether it must match.
struct MatchCase: Sendable, CustomTestStringConvertible {
    var label: String
    var descriptor: DiscoveryDescriptor
    var heard: AdvertisingData
    var rssi: Int8? = -60
    var matches: Bool
    var testDescription: String { label }
}

struct NetworkCase: Sendable, CustomTestStringConvertible {
    var label: String
    var descriptor: DiscoveryDescriptor
    var ssid: [UInt8]
    var bssid: UInt64 = 0x0200_0000_0001
    var signal: Int? = -55
    var matches: Bool
    var testDescription: String { label }
}

private let nus = "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"
private let apple: UInt16 = 0x004C
private let iBeacon = DiscoveryDescriptor(
    bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x02, 0x15], bluetoothManufacturerDataMask: [0xFF, 0xFF])

@Suite struct DescriptorMatchingTests {
    static let bluetooth: [MatchCase] = [
        .init(label: "manufacturer data prefix matches; bytes past the mask are ignored", descriptor: iBeacon,
              heard: .init(manufacturerData: [apple: [0x02, 0x15, 0xAA, 0xBB]]), matches: true),
        .init(label: "mask longer than the data heard does not match", descriptor: iBeacon,
              heard: .init(manufacturerData: [apple: [0x02]]), matches: false),
        .init(label: "no manufacturer data for that company", descriptor: iBeacon,
              heard: .init(manufacturerData: [0x0059: [0x02, 0x15]]), matches: false),
        .init(label: "masked bits are don't-care",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x10, 0x05], bluetoothManufacturerDataMask: [0xF0, 0x0F]),
              heard: .init(manufacturerData: [apple: [0x1A, 0xF5]]), matches: true),
        .init(label: "a masked-in bit that differs fails",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x10, 0x05], bluetoothManufacturerDataMask: [0xF0, 0x0F]),
              heard: .init(manufacturerData: [apple: [0x2A, 0xF5]]), matches: false),
        .init(label: "service data of the descriptor's service",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("FCD2"), bluetoothServiceDataBlob: [0x40], bluetoothServiceDataMask: [0xE0]),
              heard: .init(serviceData: [BluetoothUUID("FCD2")!: [0x44, 0x01, 0x64]]), matches: true),
        .init(label: "service data of another service does not count",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("FCD2"), bluetoothServiceDataBlob: [0x40], bluetoothServiceDataMask: [0xE0]),
              heard: .init(completeServiceUUIDs: [BluetoothUUID("FCD2")!], serviceData: [BluetoothUUID("FE2C")!: [0x40]]), matches: false),
        .init(label: "service data mask longer than the data heard",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("FCD2"), bluetoothServiceDataBlob: [0x40, 0, 0], bluetoothServiceDataMask: [0xE0, 0, 0xFF]),
              heard: .init(serviceData: [BluetoothUUID("FCD2")!: [0x40, 0x00]]), matches: false),
        .init(label: "name substring on a device with no name",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"),
              heard: .init(manufacturerData: [apple: []]), matches: false),
        .init(label: "name substring in the middle",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Sensor"),
              heard: .init(completeLocalName: Build.name("Acme Sensor 7"), manufacturerData: [apple: []]), matches: true),
        .init(label: "shortened name counts when no complete one",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"),
              heard: .init(shortenedLocalName: Build.name("Acme S"), manufacturerData: [apple: []]), matches: true),
        .init(label: "name is case-sensitive by default",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "acme"),
              heard: .init(completeLocalName: Build.name("ACME Sensor"), manufacturerData: [apple: []]), matches: false),
        .init(label: "case-insensitive name",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "acme", bluetoothNameSubstringCompareOptions: .caseInsensitive),
              heard: .init(completeLocalName: Build.name("ACME Sensor"), manufacturerData: [apple: []]), matches: true),
        .init(label: "case-insensitive beyond ASCII",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "ÉCLAIR", bluetoothNameSubstringCompareOptions: .caseInsensitive),
              heard: .init(completeLocalName: Build.name("mon éclair"), manufacturerData: [apple: []]), matches: true),
        .init(label: "anchored needs a prefix",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Sensor", bluetoothNameSubstringCompareOptions: .anchored),
              heard: .init(completeLocalName: Build.name("Acme Sensor"), manufacturerData: [apple: []]), matches: false),
        .init(label: "anchored and case-insensitive",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "acme", bluetoothNameSubstringCompareOptions: [.anchored, .caseInsensitive]),
              heard: .init(completeLocalName: Build.name("ACME Sensor"), manufacturerData: [apple: []]), matches: true),
        .init(label: "a name of invalid UTF-8 still matches on its valid part",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"),
              heard: .init(completeLocalName: [0x41, 0x63, 0x6D, 0x65, 0xFF], manufacturerData: [apple: []]), matches: true),
        .init(label: "128-bit UUID written in lower case matches one heard",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID(nus.lowercased()), bluetoothNameSubstring: "UART"),
              heard: .init(completeLocalName: Build.name("UART"), completeServiceUUIDs: [BluetoothUUID(nus)!]), matches: true),
        .init(label: "128-bit UUID written in upper case matches one heard in an incomplete list",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID(nus), bluetoothNameSubstring: "UART"),
              heard: .init(completeLocalName: Build.name("UART"), incompleteServiceUUIDs: [BluetoothUUID(littleEndianBytes: BluetoothUUID(nus)!.bytes.reversed())!]), matches: true),
        .init(label: "16-bit alias equals its 128-bit form",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("0000180f-0000-1000-8000-00805f9b34fb"), bluetoothNameSubstring: "B"),
              heard: .init(completeLocalName: Build.name("Bat"), completeServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)]), matches: true),
        .init(label: "32-bit UUID heard as service data matches its 128-bit form",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("12345678-0000-1000-8000-00805f9b34fb"), bluetoothServiceDataBlob: [0x01], bluetoothServiceDataMask: [0xFF]),
              heard: .init(serviceData: [BluetoothUUID(littleEndianBytes: [0x78, 0x56, 0x34, 0x12])!: [0x01, 0x02]]), matches: true),
        .init(label: "a service advertised only through its service data",
              descriptor: .init(bluetoothServiceUUID: BluetoothUUID("FCD2"), bluetoothNameSubstring: "B"),
              heard: .init(completeLocalName: Build.name("BTHome"), serviceData: [BluetoothUUID("FCD2")!: [0x40]]), matches: true),
        .init(label: "company and service both required",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothServiceUUID: BluetoothUUID("180F"), bluetoothNameSubstring: "A"),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), matches: false),
        .init(label: "glob pattern over the whole name",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNamePattern: "Acme-[0-9][0-9]*"),
              heard: .init(completeLocalName: Build.name("Acme-42 kitchen"), manufacturerData: [apple: []]), matches: true),
        .init(label: "glob does not match a part of the name",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNamePattern: "Acme-??"),
              heard: .init(completeLocalName: Build.name("Acme-421"), manufacturerData: [apple: []]), matches: false),
        .init(label: "substring and pattern both required",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "kitchen", bluetoothNamePattern: "Acme*"),
              heard: .init(completeLocalName: Build.name("Acme hall"), manufacturerData: [apple: []]), matches: false),
        .init(label: "immediate range: far", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", bluetoothRange: .immediate),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: -51, matches: false),
        .init(label: "immediate range: at the threshold", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", bluetoothRange: .immediate),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: -50, matches: true),
        .init(label: "immediate range: RSSI unknown", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", bluetoothRange: .immediate),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: nil, matches: false),
        .init(label: "default range: RSSI unknown", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A"),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: nil, matches: true),
        .init(label: "minimum RSSI: weaker", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", minimumRSSI: -70),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: -71, matches: false),
        .init(label: "minimum RSSI: strong enough", descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", minimumRSSI: -70),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: -70, matches: true),
        .init(label: "minimum RSSI stricter than immediate wins",
              descriptor: .init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", bluetoothRange: .immediate, minimumRSSI: -40),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), rssi: -45, matches: false),
        .init(label: "a Wi-Fi-only descriptor never matches an advertisement", descriptor: .init(ssidPrefix: Array("A".utf8)),
              heard: .init(completeLocalName: Build.name("A"), manufacturerData: [apple: []]), matches: false),
    ]

    static let wifi: [NetworkCase] = [
        .init(label: "exact SSID", descriptor: .init(ssid: SSID("Acme Setup")), ssid: Array("Acme Setup".utf8), matches: true),
        .init(label: "exact SSID is not a prefix", descriptor: .init(ssid: SSID("Acme")), ssid: Array("Acme Setup".utf8), matches: false),
        .init(label: "SSID is case-sensitive", descriptor: .init(ssid: SSID("acme setup")), ssid: Array("Acme Setup".utf8), matches: false),
        .init(label: "SSID of non-UTF-8 bytes", descriptor: .init(ssid: SSID(bytes: [0x41, 0xFF, 0xFE])), ssid: [0x41, 0xFF, 0xFE], matches: true),
        .init(label: "non-UTF-8 SSID is not its U+FFFD form",
              descriptor: .init(ssid: SSID(String(decoding: [0x41, 0xFF] as [UInt8], as: UTF8.self))), ssid: [0x41, 0xFF], matches: false),
        .init(label: "prefix", descriptor: .init(ssidPrefix: Array("ACME-".utf8)), ssid: Array("ACME-1F2E".utf8), matches: true),
        .init(label: "prefix equal to the whole SSID", descriptor: .init(ssidPrefix: Array("ACME-".utf8)), ssid: Array("ACME-".utf8), matches: true),
        .init(label: "prefix longer than the SSID", descriptor: .init(ssidPrefix: Array("ACME-1".utf8)), ssid: Array("ACME-".utf8), matches: false),
        .init(label: "prefix that cuts a UTF-8 character", descriptor: .init(ssidPrefix: [0x43, 0x61, 0x66, 0xC3]), ssid: Array("Café".utf8), matches: true),
        .init(label: "hidden network never matches a prefix", descriptor: .init(ssidPrefix: [0]), ssid: [], matches: false),
        .init(label: "BSSID inside the mask",
              descriptor: .init(ssidPrefix: [0x41], bssid: BSSIDFilter(bssid: HardwareAddress("AA:BB:CC:00:00:00")!, mask: HardwareAddress("FF:FF:FF:00:00:00")!)),
              ssid: [0x41], bssid: 0xAABB_CC12_3456, matches: true),
        .init(label: "BSSID outside the mask",
              descriptor: .init(ssidPrefix: [0x41], bssid: BSSIDFilter(bssid: HardwareAddress("AA:BB:CC:00:00:00")!, mask: HardwareAddress("FF:FF:FF:00:00:00")!)),
              ssid: [0x41], bssid: 0xAABB_CD12_3456, matches: false),
        .init(label: "exact BSSID", descriptor: .init(ssid: SSID("A"), bssid: BSSIDFilter(bssid: HardwareAddress("02:00:00:00:00:01")!)),
              ssid: [0x41], bssid: 0x0200_0000_0002, matches: false),
        .init(label: "minimum signal", descriptor: .init(ssid: SSID("A"), minimumRSSI: -60), ssid: [0x41], signal: -61, matches: false),
        .init(label: "unknown signal with a minimum", descriptor: .init(ssid: SSID("A"), minimumRSSI: -60), ssid: [0x41], signal: nil, matches: false),
        .init(label: "a Bluetooth-only descriptor never matches a BSS",
              descriptor: .init(bluetoothCompanyIdentifier: 1, bluetoothNameSubstring: "A"), ssid: [0x41], matches: false),
    ]

    @Test(arguments: bluetooth)
    func bluetoothRule(_ row: MatchCase) throws {
        var index = MatchingIndex()
        try index.insert(row.descriptor, id: 7, app: "acme")
        let advertisement = Build.advertisement(rssi: row.rssi, row.heard)
        let found = index.matches(advertisement)
        #expect(found == (row.matches ? [DescriptorMatch(app: "acme", descriptorID: 7)] : []))
        #expect(index.matchesByScanningAll(advertisement) == found)
    }

    @Test(arguments: wifi)
    func wifiRule(_ row: NetworkCase) throws {
        var index = MatchingIndex()
        try index.insert(row.descriptor, id: 7, app: "acme")
        let network = Build.network(row.ssid, bssid: row.bssid, signal: row.signal)
        let found = index.matches(network)
        #expect(found == (row.matches ? [DescriptorMatch(app: "acme", descriptorID: 7)] : []))
        #expect(index.matchesByScanningAll(network) == found)
    }

    @Test func immediateThresholdIsConfigurable() throws {
        var index = MatchingIndex(configuration: MatchingConfiguration(immediateRSSIThreshold: -65))
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "A", bluetoothRange: .immediate), id: 1, app: "a")
        let data = AdvertisingData(completeLocalName: Build.name("A"), manufacturerData: [apple: []])
        #expect(index.matches(Build.advertisement(rssi: -60, data)).count == 1)
        #expect(index.matches(Build.advertisement(rssi: -66, data)).isEmpty)
        // The registry judges on its smoothed RSSI instead of the packet's own.
        #expect(index.matches(Build.advertisement(rssi: -40, data), rssi: -70).isEmpty)
    }
}
