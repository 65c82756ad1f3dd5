import Testing
@testable import AccessoryCore

/// "A name needs text and no control characters", as one rule.
@Suite struct GivenNameTests {
    @Test(arguments: ["Lamp", "Ünïcode lamp 🙂", " Porch ", "灯", "a\u{200B}b"])
    func namesWithSomethingVisiblePass(name: String) {
        #expect(GivenName.problem(name) == nil)
    }

    @Test(arguments: [0x00, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F] as [UInt32])
    func c0C1AndDelAreControlCharacters(value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        #expect(GivenName.problem("Lamp" + String(Character(scalar))) == .controlCharacter(scalar))
        #expect(DisplayText.hasControlCharacters("x" + String(Character(scalar))))
    }

    @Test(arguments: ["   ", "\u{200B}", "\u{202E}", "\u{00A0}\u{2060}", "\u{FEFF}", "\u{3164}", "\u{0301}"])
    func namesShowingNothingAreRefused(name: String) {
        #expect(GivenName.problem(name) == .nothingVisible)
    }

    @Test func anEmptyNameIsEmpty() {
        #expect(GivenName.problem("") == .empty)
    }
}

/// The descriptor rules in the keys an app sends.
@Suite struct DescriptorKeyWordingTests {
    @Test func theDaemonsAnswerNamesTheKeysNotTheSwiftProperties() {
        let mask = AccessorySetupError.invalidRequest(.missingBlob(.manufacturerData)).reason?.description ?? ""
        #expect(mask == "invalid descriptor: ManufacturerDataMask is given without ManufacturerDataBlob")
        let prefix = AccessorySetupError.invalidRequest(.ssidPrefixTooLong(length: 33)).reason?.description ?? ""
        #expect(prefix == "invalid descriptor: SSIDPrefix is 33 bytes, more than an SSID's 32")
        for error: DiscoveryDescriptorError in [.describesNothing, .missingBluetoothIdentifier, .missingBluetoothCriterion,
                                                .emptyNameSubstring, .missingMask(.serviceData), .emptyMask(.manufacturerData),
                                                .manufacturerDataWithoutCompanyIdentifier, .serviceDataWithoutServiceUUID,
                                                .missingSSID, .ssidAndSSIDPrefixBothSet, .emptySSID, .emptySSIDPrefix,
                                                .minimumRSSIOutOfRange(30)] {
            #expect(!error.keyDescription.contains("bluetooth") && !error.keyDescription.contains("ssid"), "\(error.keyDescription)")
        }
    }
}
