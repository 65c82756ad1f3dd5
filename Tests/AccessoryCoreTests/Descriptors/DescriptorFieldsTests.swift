import AccessoryCore
import Testing

/// Descriptors as the D-Bus API carries them: the keys and value syntax of
/// the descriptor files, every key, and SSIDs that are not text.
@Suite struct DescriptorFieldsTests {
    /// Every property set to something other than its default.
    static let everything = DiscoveryDescriptor(
        bluetoothCompanyIdentifier: 0x004C,
        bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F),
        bluetoothNameSubstring: "Acme",
        bluetoothNameSubstringCompareOptions: [.caseInsensitive, .anchored],
        bluetoothManufacturerDataBlob: [0x02, 0x15],
        bluetoothManufacturerDataMask: [0xFF, 0xFF],
        bluetoothServiceDataBlob: [0x01],
        bluetoothServiceDataMask: [0xFF],
        bluetoothRange: .immediate,
        supportedOptions: [.bluetoothPairingLE, .bluetoothTransportBridging, .bluetoothHID],
        bluetoothNamePattern: "Acme-*",
        ssid: SSID(bytes: Array("Acme Camera".utf8) + [0xFF]),
        ssidPrefix: Array("ACME-".utf8),
        bssid: BSSIDFilter(bssid: BSSID(rawValue: 0x0200_0000_0000)!, mask: BSSID(rawValue: 0xFFFF_FF00_0000)!),
        minimumRSSI: -70)

    @Test func everyKeyIsWrittenWithTheDescriptorFilesSyntax() {
        let pairs = DescriptorFields.fields(of: Self.everything)
        #expect(pairs.map(\.key) == [
            "ServiceUUID", "CompanyIdentifier", "NameSubstring", "NameCompare", "NamePattern",
            "ManufacturerDataBlob", "ManufacturerDataMask", "ServiceDataBlob", "ServiceDataMask", "Range",
            "SupportedOptions", "SSID", "SSIDPrefix", "BSSID", "MinimumRSSI",
        ])
        #expect(pairs.map(\.value) == [
            "180F", "0x004C", "Acme", "case-insensitive anchored", "Acme-*",
            "0215", "ffff", "01", "ff", "immediate",
            "bluetoothPairingLE bluetoothTransportBridging bluetoothHID", "Acme Camera\\xff", "ACME-",
            "02:00:00:00:00:00/FF:FF:FF:00:00:00", "-70",
        ])
    }

    @Test func defaultsAreNotSent() {
        #expect(DescriptorFields.fields(of: DiscoveryDescriptor()).isEmpty)
        let pairs = DescriptorFields.fields(of: DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0xFCD2), bluetoothNameSubstring: "Lamp"))
        #expect(pairs.map(\.key) == ["ServiceUUID", "NameSubstring"])
    }

    @Test func aSingleBSSIDCarriesAFullMask() {
        let descriptor = DiscoveryDescriptor(ssid: SSID("Cam"), bssid: BSSIDFilter(bssid: BSSID("AA:BB:CC:DD:EE:FF")!))
        #expect(DescriptorFields.fields(of: descriptor).last?.value == "AA:BB:CC:DD:EE:FF/FF:FF:FF:FF:FF:FF")
    }

    @Test func aLongUUIDIsWrittenInItsCanonicalForm() {
        let uuid = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
        let pairs = DescriptorFields.fields(of: DiscoveryDescriptor(bluetoothServiceUUID: uuid))
        #expect(pairs.first?.value == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
    }

    @Test func everyKeyReadsBackToTheSameDescriptor() throws {
        let pairs = DescriptorFields.fields(of: Self.everything)
        #expect(try DescriptorFields.descriptor(from: pairs) == Self.everything)
    }

    /// The agent reads these keys with the descriptor files' parser: what the
    /// client writes must mean the same there (SupportedOptions aside, which
    /// the files do not have).
    @Test func theDescriptorFileParserReadsWhatIsSent() throws {
        var descriptor = Self.everything
        descriptor.supportedOptions = []
        descriptor.ssidPrefix = nil
        let text = "[Descriptor wire]\n"
            + DescriptorFields.fields(of: descriptor).map { "\($0.key)=\($0.value)\n" }.joined()
        let entries = try DescriptorFile.parse(Array(text.utf8), source: "wire")
        #expect(entries.map(\.descriptor) == [descriptor])
    }

    // MARK: SSIDs are octets

    @Test(arguments: [
        // NUL, backslash, 0xFF, newline, a literal "\x41" in text, half of "é".
        ([0x00, 0x5C, 0xFF, 0x0A], "\\x00\\\\\\xff\\x0a"),
        (Array("a\\x41".utf8), "a\\\\x41"),
        (Array("Caf".utf8) + [0xC3], "Caf\\xc3"),
        (Array("Café 🔌".utf8), "Café 🔌"),
        ([0x7F, 0x20, 0x7E], "\\x7f ~"),
    ] as [([UInt8], String)])
    func hostileSSIDOctetsAreEscapedAndReadBack(octets: [UInt8], text: String) throws {
        #expect(SSIDText.escaped(octets) == text)
        #expect(SSIDText.octets(text) == octets)
        let descriptor = DiscoveryDescriptor(ssid: SSID(bytes: octets), ssidPrefix: nil)
        #expect(try DescriptorFields.descriptor(from: DescriptorFields.fields(of: descriptor)) == descriptor)
        let prefix = DiscoveryDescriptor(ssidPrefix: octets)
        #expect(try DescriptorFields.descriptor(from: DescriptorFields.fields(of: prefix)) == prefix)
    }

    @Test func all256OctetsSurviveTheTrip() throws {
        for start in stride(from: 0, to: 256, by: 32) {
            let octets = (start..<start + 32).map { UInt8($0) }
            #expect(SSIDText.octets(SSIDText.escaped(octets)) == octets)
        }
    }

    @Test(arguments: ["\\", "abc\\", "\\x4", "\\xZZ", "\\q", "\\x"])
    func brokenEscapesAreRefused(text: String) {
        #expect(SSIDText.octets(text) == nil)
    }

    // MARK: What the agent sends back, checked

    @Test(arguments: [
        ("SSID", "\\xZZ"), ("SSID", String(repeating: "a", count: 33)), ("SSIDPrefix", "\\"),
        ("ServiceUUID", "18G0"), ("CompanyIdentifier", "0x10000"), ("CompanyIdentifier", "-1"),
        ("ManufacturerDataBlob", "0"), ("ServiceDataMask", "zz"), ("NameCompare", "fuzzy"),
        ("SupportedOptions", "bluetoothTelepathy"), ("Range", "far"), ("BSSID", "AA:BB"),
        ("BSSID", "AA:BB:CC:DD:EE:FF/nope"), ("MinimumRSSI", "21"), ("MinimumRSSI", "-128"),
        ("MinimumRSSI", "99999999999999999999"),
    ])
    func invalidValuesAreRefusedByKey(key: String, value: String) {
        #expect(throws: DescriptorFields.FieldError.self) {
            try DescriptorFields.descriptor(from: [(key, value)])
        }
        do {
            _ = try DescriptorFields.descriptor(from: [(key, value)])
        } catch {
            guard case .invalidValue(let refusedKey, let refusedValue, _) = error else {
                Issue.record("expected invalidValue, got \(error)")
                return
            }
            #expect(refusedKey == key)
            #expect(refusedValue == value)
        }
    }

    @Test func unknownAndRepeatedKeysAreRefused() {
        #expect(throws: DescriptorFields.FieldError.unknownKey("Colour")) {
            try DescriptorFields.descriptor(from: [("Colour", "red")])
        }
        #expect(throws: DescriptorFields.FieldError.duplicateKey("NameSubstring")) {
            try DescriptorFields.descriptor(from: [("NameSubstring", "a"), ("NameSubstring", "b")])
        }
    }

    /// Found by the descriptor-fields fuzz target: a backslash followed by a
    /// combining mark (one Character in Swift) was written unescaped, and the
    /// field did not read back.
    @Test func aBackslashBeforeACombiningMarkIsEscapedAndReadsBack() throws {
        let octets = Array("00\u{01A3}\\\u{030E}".utf8)
        #expect(SSIDText.escaped(octets) == "00\u{01A3}\\\\\u{030E}")
        #expect(SSIDText.octets(SSIDText.escaped(octets)) == octets)
        var descriptor = DiscoveryDescriptor()
        descriptor.ssid = SSID(bytes: octets)
        #expect(try DescriptorFields.descriptor(from: DescriptorFields.fields(of: descriptor)) == descriptor)
    }
}
