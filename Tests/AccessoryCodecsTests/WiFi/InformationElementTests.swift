import AccessoryCodecs
import AccessoryCore
import Testing

/// Element bodies here are built field by field from IEEE 802.11-2020; the lab
/// captures (NL80211ScanResultDecoderTests, BeaconCaptureTests) cover real ones.
@Suite("802.11 information elements")
struct InformationElementTests {
    static func element(_ id: UInt8, _ body: [UInt8]) -> [UInt8] { [id, UInt8(body.count)] + body }

    /// RSN: version 1, group CCMP, pairwise [CCMP], AKMs, capabilities.
    static func rsnBody(akms: [UInt8], capabilities: [UInt8] = [0x00, 0x00]) -> [UInt8] {
        [0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04, 0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04]
            + [UInt8(akms.count), 0x00] + akms.flatMap { [0x00, 0x0F, 0xAC, $0] } + capabilities
    }

    @Test func walksElementsAndKeepsUnknownOnes() throws {
        let bytes = Self.element(0, Array("net".utf8)) + Self.element(42, [0]) + Self.element(3, [6])
        let parsed = try InformationElements.parse(bytes)
        #expect(parsed.elements.map(\.id) == [0, 42, 3])
        #expect(parsed.ssid?.bytes == Array("net".utf8))
        #expect(parsed.dsChannel == 6)
        #expect(parsed.primaryChannel == 6)
        #expect(parsed.band == .ghz2_4)
    }

    @Test func anEmptyRunIsValid() throws {
        let parsed = try InformationElements.parse([])
        #expect(parsed.elements.isEmpty)
        #expect(parsed.ssid == nil)
    }

    @Test func aLengthPastTheEndIsNamed() {
        #expect(throws: IEParsingError.elementLengthPastEnd(id: 1, offset: 5, length: 8, available: 2)) {
            try InformationElements.parse(Self.element(0, [0x61, 0x62, 0x63]) + [1, 8, 0x82, 0x84])
        }
    }

    @Test func aLoneTrailingByteIsNamed() {
        #expect(throws: IEParsingError.elementHeaderTruncated(offset: 3)) {
            try InformationElements.parse(Self.element(0, [0x61]) + [0xDD])
        }
    }

    @Test func zeroLengthAndZeroedSSIDsAreHiddenNotErrors() throws {
        let empty = try InformationElements.parse(Self.element(0, []))
        #expect(empty.ssid?.bytes == [])
        #expect(empty.ssid?.isHidden == true)
        let zeroed = try InformationElements.parse(Self.element(0, [0, 0, 0, 0]))
        #expect(zeroed.ssid?.isHidden == true)
    }

    @Test func thirtyTwoBytesIsTheLongestSSID() throws {
        let longest = try InformationElements.parse(Self.element(0, [UInt8](repeating: 0x61, count: 32)))
        #expect(longest.ssid?.bytes.count == 32)
        #expect(throws: IEParsingError.ssidTooLong(length: 33)) {
            try InformationElements.parse(Self.element(0, [UInt8](repeating: 0x61, count: 33)))
        }
    }

    @Test func theFirstSSIDCounts() throws {
        let parsed = try InformationElements.parse(Self.element(0, [0x61]) + Self.element(0, [0x62]))
        #expect(parsed.ssid?.bytes == [0x61])
    }

    @Test func supportedAndExtendedRatesAreJoined() throws {
        let parsed = try InformationElements.parse(
            Self.element(1, [0x82, 0x84, 0x8B, 0x96]) + Self.element(50, [0x30, 0x48]))
        #expect(parsed.supportedRates == [0x82, 0x84, 0x8B, 0x96, 0x30, 0x48])
    }

    @Test func aDSParameterSetMustBeOneByte() {
        #expect(throws: IEParsingError.dsParameterSetLength(2)) {
            try InformationElements.parse(Self.element(3, [1, 2]))
        }
    }

    @Test func htOperationGivesTheChannelAndOffset() throws {
        var body = [UInt8](repeating: 0, count: 22)
        body[0] = 36
        body[1] = 0x05  // secondary above, any width
        let parsed = try InformationElements.parse(Self.element(61, body))
        #expect(parsed.htOperation?.primaryChannel == 36)
        #expect(parsed.htOperation?.secondaryChannelOffset == .above)
        #expect(parsed.htOperation?.allowsAnyChannelWidth == true)
        #expect(parsed.band == .ghz5)
        #expect(throws: IEParsingError.htOperationTooShort(length: 21)) {
            try InformationElements.parse(Self.element(61, Array(body.dropLast())))
        }
    }

    @Test func vhtOperationGivesTheWidthAndSegments() throws {
        let parsed = try InformationElements.parse(Self.element(192, [1, 42, 0, 0xFC, 0xFF]))
        #expect(parsed.vhtOperation?.channelWidth == 1)
        #expect(parsed.vhtOperation?.centerFrequencySegment0 == 42)
        #expect(parsed.band == .ghz5)
        #expect(throws: IEParsingError.vhtOperationTooShort(length: 4)) {
            try InformationElements.parse(Self.element(192, [1, 42, 0, 0xFC]))
        }
    }

    @Test func heOperationOn6GHzNamesTheChannel() throws {
        // Parameters with bit 17 (6 GHz info present), color, MCS, then primary 37,
        // control 0x02 (80 MHz), segments 39 and 0, minimum rate.
        let body: [UInt8] = [36, 0x00, 0x00, 0x02, 0x01, 0xFC, 0xFF, 37, 0x02, 39, 0, 6]
        let parsed = try InformationElements.parse(Self.element(255, body))
        #expect(parsed.heOperation?.sixGHzOperation?.primaryChannel == 37)
        #expect(parsed.heOperation?.sixGHzOperation?.channelWidth == 2)
        #expect(parsed.primaryChannel == 37)
        #expect(parsed.band == .ghz6)
        #expect(throws: IEParsingError.heOperationTruncated(field: .sixGHzOperationInformation)) {
            try InformationElements.parse(Self.element(255, Array(body.dropLast())))
        }
        #expect(throws: IEParsingError.heOperationTruncated(field: .parameters)) {
            try InformationElements.parse(Self.element(255, [36, 0x00]))
        }
    }

    @Test func otherExtensionElementsAreLeftAlone() throws {
        let parsed = try InformationElements.parse(Self.element(255, [35, 1]))  // HE Capabilities stub
        #expect(parsed.heOperation == nil)
        #expect(parsed.elements.count == 1)
    }

    @Test func oweTransitionReadsTheTwin() throws {
        let body: [UInt8] = [0x50, 0x6F, 0x9A, 0x1C, 2, 0, 0, 0, 0x0C, 1, 3] + Array("owe".utf8) + [81, 1]
        let parsed = try InformationElements.parse(Self.element(221, body))
        let twin = try #require(parsed.oweTransition)
        #expect(twin.bssid.description == "02:00:00:00:0C:01")
        #expect(twin.ssid.bytes == Array("owe".utf8))
        #expect(twin.operatingClass == 81)
        #expect(twin.channel == 1)
        #expect(throws: IEParsingError.oweTransitionTruncated(field: .bandAndChannel)) {
            try InformationElements.parse(Self.element(221, Array(body.dropLast())))
        }
        #expect(throws: IEParsingError.oweTransitionTruncated(field: .ssid)) {
            try InformationElements.parse(Self.element(221, Array(body.prefix(13))))
        }
        #expect(throws: IEParsingError.oweTransitionTruncated(field: .bssid)) {
            try InformationElements.parse(Self.element(221, Array(body.prefix(8))))
        }
    }

    @Test func otherVendorElementsAreLeftAlone() throws {
        // WPA OUI with type 4 (WPS) and a body too short for any type.
        let parsed = try InformationElements.parse(
            Self.element(221, [0x00, 0x50, 0xF2, 0x04, 0x10]) + Self.element(221, [0x00, 0x50]))
        #expect(parsed.wpa == nil)
        #expect(parsed.elements.count == 2)
    }
}

@Suite("RSN and WPA elements")
struct SecurityElementTests {
    // Joined from an array of parts: Swift 6.0–6.2 cannot type-check a chain of `+` in reasonable time.
    static let fullRSN: [UInt8] = {
        let parts: [[UInt8]] = [
            [0x01, 0x00],  // version
            [0x00, 0x0F, 0xAC, 0x04],  // group CCMP
            [0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04],  // pairwise count 1, CCMP
            [0x02, 0x00, 0x00, 0x0F, 0xAC, 0x02, 0x00, 0x0F, 0xAC, 0x08],  // AKM count 2: PSK, SAE
            [0x80, 0x00],  // capabilities: MFPC
            [0x01, 0x00], [UInt8](repeating: 0xA5, count: 16),  // one PMKID
            [0x00, 0x0F, 0xAC, 0x06],  // group management BIP-CMAC-128
        ]
        return Array(parts.joined())
    }()

    /// Where each field of `fullRSN` ends. Cutting inside a field is malformed; so is
    /// cutting after a non-zero count before its list.
    static let fieldEnds: [(end: Int, field: SecurityElementField)] = [
        (2, .version), (6, .groupCipher), (8, .pairwiseCount), (12, .pairwiseSuites),
        (14, .akmCount), (22, .akmSuites), (24, .capabilities), (26, .pmkidCount), (42, .pmkids),
        (46, .groupManagementCipher),
    ]
    /// The lengths at which the element ends after a whole optional field.
    static let legalCuts: Set<Int> = [2, 6, 12, 22, 24, 42, 46]

    @Test func aFullRSNElementParses() throws {
        let rsn = try RSNElement(parsing: Self.fullRSN[...])
        #expect(rsn.version == 1)
        #expect(rsn.groupCipher == .ccmp)
        #expect(rsn.pairwiseCiphers == [.ccmp])
        #expect(rsn.akmSuites == [.ieee80211(2), .ieee80211(8)])
        #expect(rsn.capabilities == .managementFrameProtectionCapable)
        #expect(rsn.pmkids == [[UInt8](repeating: 0xA5, count: 16)])
        #expect(rsn.groupManagementCipher == .ieee80211(6))
    }

    @Test(arguments: 0..<fullRSN.count)
    func cuttingAnRSNElementAnywhereNamesTheFieldOrFallsBackToDefaults(length: Int) throws {
        let body = Self.fullRSN.prefix(length)
        if length == 0 {
            #expect(throws: IEParsingError.rsnTruncated(field: .version)) { try RSNElement(parsing: body) }
        } else if Self.legalCuts.contains(length) {
            // A whole field ends here: what follows takes the standard's defaults.
            let rsn = try RSNElement(parsing: body)
            #expect(rsn.groupCipher == .ccmp)
            #expect(rsn.pairwiseCiphers == [.ccmp])
            #expect(rsn.akmSuites == (length < 14 ? [.akm8021X] : [.ieee80211(2), .ieee80211(8)]))
            #expect(rsn.capabilities == (length < 24 ? [] : .managementFrameProtectionCapable))
            #expect(rsn.pmkids.count == (length < 42 ? 0 : 1))
            #expect(rsn.groupManagementCipher == (length < 46 ? nil : .ieee80211(6)))
        } else {
            let inside = try #require(Self.fieldEnds.first { $0.end > length })
            #expect(throws: IEParsingError.rsnTruncated(field: inside.field)) {
                try RSNElement(parsing: body)
            }
        }
    }

    @Test func rsnCutsSurfaceThroughTheElementParser() {
        let cut = Array(Self.fullRSN.prefix(17))
        #expect(throws: IEParsingError.rsnTruncated(field: .akmSuites)) {
            try InformationElements.parse([48, UInt8(cut.count)] + cut)
        }
    }

    @Test func aSuiteCountLargerThanTheElementIsNamed() {
        let body: [UInt8] = [0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04, 0xFF, 0xFF, 0x00, 0x0F, 0xAC, 0x04]
        #expect(throws: IEParsingError.rsnTruncated(field: .pairwiseSuites)) {
            try RSNElement(parsing: body[...])
        }
    }

    @Test func onlyVersionOneIsUnderstood() {
        #expect(throws: IEParsingError.rsnUnsupportedVersion(2)) {
            try RSNElement(parsing: [0x02, 0x00, 0x00, 0x0F, 0xAC, 0x04][...])
        }
    }

    static let wpaVendorBody: [UInt8] =
        [0x00, 0x50, 0xF2, 0x01, 0x01, 0x00, 0x00, 0x50, 0xF2, 0x02]
        + [0x01, 0x00, 0x00, 0x50, 0xF2, 0x02] + [0x01, 0x00, 0x00, 0x50, 0xF2, 0x02]

    @Test func aWPAElementParses() throws {
        let wpa = try WPAElement(parsingVendorBody: Self.wpaVendorBody[...])
        #expect(wpa.groupCipher == .wpaTKIP)
        #expect(wpa.akmSuites == [.wpa(2)])
        #expect(wpa.capabilities == nil)
    }

    @Test func cuttingAWPAElementInsideAFieldIsNamed() {
        #expect(throws: IEParsingError.wpaTruncated(field: .version)) {
            try WPAElement(parsingVendorBody: Self.wpaVendorBody.prefix(5))
        }
        #expect(throws: IEParsingError.wpaTruncated(field: .groupCipher)) {
            try WPAElement(parsingVendorBody: Self.wpaVendorBody.prefix(8))
        }
        #expect(throws: IEParsingError.wpaTruncated(field: .akmSuites)) {
            try WPAElement(parsingVendorBody: Self.wpaVendorBody.prefix(21))
        }
        #expect(throws: IEParsingError.unexpectedVendorHeader(expected: WPAElement.header, actual: [0x00, 0x50, 0xF2, 0x04])) {
            try WPAElement(parsingVendorBody: [0x00, 0x50, 0xF2, 0x04, 0x01, 0x00][...])
        }
        #expect(throws: IEParsingError.wpaUnsupportedVersion(3)) {
            try WPAElement(parsingVendorBody: [0x00, 0x50, 0xF2, 0x01, 0x03, 0x00][...])
        }
    }
}

@Suite("Security classification")
struct SecurityClassificationTests {
    static func ies(rsnAKMs: [UInt8]? = nil, wpaAKMs: [UInt8]? = nil) throws -> ParsedIEs {
        var bytes: [UInt8] = []
        if let rsnAKMs {
            let body = InformationElementTests.rsnBody(akms: rsnAKMs)
            bytes += [48, UInt8(body.count)] + body
        }
        if let wpaAKMs {
            let body: [UInt8] = [0x00, 0x50, 0xF2, 0x01, 0x01, 0x00, 0x00, 0x50, 0xF2, 0x02, 0x01, 0x00,
                                 0x00, 0x50, 0xF2, 0x02, UInt8(wpaAKMs.count), 0x00]
                + wpaAKMs.flatMap { [0x00, 0x50, 0xF2, $0] }
            bytes += [221, UInt8(body.count)] + body
        }
        return try InformationElements.parse(bytes)
    }

    static let privacy = CapabilityInformation.privacy | CapabilityInformation.ess

    @Test func withoutElementsThePrivacyBitDecidesOpenOrWEP() throws {
        #expect(security(fromIEs: try Self.ies(), capability: CapabilityInformation.ess) == .open)
        #expect(security(fromIEs: try Self.ies(), capability: Self.privacy) == .wep)
    }

    struct AKMCase: Sendable, CustomTestStringConvertible {
        let akms: [UInt8]
        let expected: WiFiSecurity
        init(_ akms: [UInt8], _ expected: WiFiSecurity) {
            self.akms = akms
            self.expected = expected
        }
        var testDescription: String { "AKMs \(akms) → \(expected)" }
    }

    static let akmCases: [AKMCase] = [
        AKMCase([2], .wpa2PSK), AKMCase([6], .wpa2PSK), AKMCase([4], .wpa2PSK),
        AKMCase([8], .wpa3SAE), AKMCase([24], .wpa3SAE), AKMCase([9], .wpa3SAE),
        AKMCase([18], .owe),
        AKMCase([1], .enterprise), AKMCase([3], .enterprise), AKMCase([5], .enterprise),
        AKMCase([11], .enterprise), AKMCase([12], .enterprise), AKMCase([13], .enterprise),
        AKMCase([23], .enterprise),
        AKMCase([2, 8], [.wpa2PSK, .wpa3SAE]), AKMCase([6, 8, 24], [.wpa2PSK, .wpa3SAE]),
        AKMCase([2, 1], [.wpa2PSK, .enterprise]),
        AKMCase([7], []),  // TDLS alone: nothing a station joins with
    ]

    @Test(arguments: akmCases)
    func rsnAKMsMapToSecurity(_ akmCase: AKMCase) throws {
        #expect(
            security(fromIEs: try Self.ies(rsnAKMs: akmCase.akms), capability: Self.privacy)
                == akmCase.expected)
    }
    @Test func wpaOneElementsMapToWPAOrEnterprise() throws {
        #expect(security(fromIEs: try Self.ies(wpaAKMs: [2]), capability: Self.privacy) == .wpa)
        #expect(security(fromIEs: try Self.ies(wpaAKMs: [1]), capability: Self.privacy) == .enterprise)
        #expect(
            security(fromIEs: try Self.ies(rsnAKMs: [2], wpaAKMs: [2]), capability: Self.privacy)
                == [.wpa, .wpa2PSK])
    }

    @Test func anRSNElementWinsOverAMissingPrivacyBit() throws {
        #expect(security(fromIEs: try Self.ies(rsnAKMs: [8]), capability: 0) == .wpa3SAE)
    }

    @Test func vendorAKMsAreNotGuessed() throws {
        // DPP's AKM is 50-6F-9A:2, not 00-0F-AC:2.
        let body: [UInt8] = [0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04, 0x01, 0x00, 0x00, 0x0F, 0xAC, 0x04,
                             0x01, 0x00, 0x50, 0x6F, 0x9A, 0x02]
        let parsed = try InformationElements.parse([48, UInt8(body.count)] + body)
        #expect(security(fromIEs: parsed, capability: Self.privacy) == [])
    }
}
