import Testing
@testable import AccessoryCore

@Suite struct DescriptorFileTests {
    func parse(_ text: String) throws(KeyFileError) -> [DescriptorFile.Entry] {
        try DescriptorFile.parse(Array(text.utf8), source: "d.conf")
    }

    @Test func readsEveryKey() throws {
        let entries = try parse("""
            [Descriptor sensor]
            App=acme
            ServiceUUID=180f
            CompanyIdentifier=0x004C
            NameSubstring=Acme
            NameCompare=case-insensitive anchored
            ManufacturerDataBlob=0215
            ManufacturerDataMask=ffff
            ServiceDataBlob=01
            ServiceDataMask=ff
            Range=immediate
            MinimumRSSI=-70

            [Descriptor camera]
            SSIDPrefix=CAM-\\xff
            BSSID=02:00:00:00:00:00/ff:ff:ff:00:00:00
            [Descriptor plug]
            SSID=Plug \\\\ "1"
            NamePattern=ignored-for-wifi-only?
            CompanyIdentifier=76
            """)
        #expect(entries.map(\.name) == ["sensor", "camera", "plug"])
        #expect(entries.map(\.id) == [1, 2, 3])
        #expect(entries.map(\.app) == ["acme", "monitor", "monitor"])
        let sensor = entries[0].descriptor
        #expect(sensor.bluetoothServiceUUID == BluetoothUUID(uuid16: 0x180F))
        #expect(sensor.bluetoothCompanyIdentifier == 0x004C)
        #expect(sensor.bluetoothNameSubstringCompareOptions == [.caseInsensitive, .anchored])
        #expect(sensor.bluetoothManufacturerDataBlob == [0x02, 0x15])
        #expect(sensor.bluetoothServiceDataMask == [0xFF])
        #expect(sensor.bluetoothRange == .immediate)
        #expect(sensor.minimumRSSI == -70)
        #expect(entries[1].descriptor.ssidPrefix == Array("CAM-".utf8) + [0xFF])
        #expect(entries[1].descriptor.bssid == BSSIDFilter(bssid: HardwareAddress("02:00:00:00:00:00")!,
                                                           mask: HardwareAddress("ff:ff:ff:00:00:00")!))
        #expect(entries[2].descriptor.ssid == SSID("Plug \\ \"1\""))
        #expect(entries[2].descriptor.bluetoothCompanyIdentifier == 76)
    }

    @Test(arguments: [
        ("[Sensors]\nSSID=x\n", 1, KeyFileError.Reason.unknownSection("Sensors")),
        ("[Descriptor a]\nSSID=x\nColour=red\n", 3, .unknownKey(section: "Descriptor a", key: "Colour")),
        ("[Descriptor a]\nSSID=x\nSSID=y\n", 3, .duplicateKey(section: "Descriptor a", key: "SSID")),
        // A section's entries are the run up to the next header: a key is repeated within its own only.
        ("[Descriptor a]\nSSID=x\nApp=x\n[Descriptor b]\nSSID=y\nApp=x\nApp=y\n", 7,
         .duplicateKey(section: "Descriptor b", key: "App")),
        ("[Descriptor ]\nSSID=x\n", 1, .unknownSection("Descriptor ")),
        ("[Descriptor a]\nNameCompare=anchored  sideways\n", 2, .invalidValue(
            section: "Descriptor a", key: "NameCompare", value: "anchored  sideways", expected: "case-insensitive and/or anchored")),
        ("[Descriptor a]\nServiceUUID=18G0\n", 2,
         .invalidValue(section: "Descriptor a", key: "ServiceUUID", value: "18G0", expected: "a 16-, 32- or 128-bit UUID")),
        ("[Descriptor a]\nManufacturerDataBlob=abc\n", 2,
         .invalidValue(section: "Descriptor a", key: "ManufacturerDataBlob", value: "abc", expected: "hex octets, e.g. 0215")),
        ("[Descriptor a]\nSSID=\\q\n", 2,
         .invalidValue(section: "Descriptor a", key: "SSID", value: "\\q", expected: "up to 32 octets, \\xNN for any octet")),
    ])
    func namesLineAndKeyOfBadEntries(text: String, line: Int, reason: KeyFileError.Reason) {
        #expect(throws: KeyFileError(source: "d.conf", line: line, reason: reason)) { try parse(text) }
    }

    @Test func aDescriptorBreakingASKRulesIsRefusedAtItsHeader() {
        // SSID and SSIDPrefix together break AccessorySetupKit's rule.
        let error = #expect(throws: KeyFileError.self) { try parse("\n[Descriptor both]\nSSID=a\nSSIDPrefix=a\n") }
        #expect(error?.line == 2)
        #expect(error?.description == "d.conf:2: [Descriptor both]: \(DiscoveryDescriptorError.ssidAndSSIDPrefixBothSet)")
    }
}
