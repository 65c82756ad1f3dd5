import AccessoryCodecs
import AccessoryCore
import Testing

/// Each case starts from the first captured BSS and breaks one thing, so the
/// rest of the message stays real.
@Suite("nl80211 scan results: malformed input")
struct NL80211MalformedTests {
    typealias Key = NL80211.BSSAttribute

    /// The captured BSS's attributes, in order.
    static func capturedBSS() throws -> [NetlinkAttribute] {
        let message = try GenericNetlinkMessage(NetlinkMessage(parsing: WiFiLabFixtures.scanDump()))
        return try #require(message.attributes[NL80211.Attribute.bss]).nested().all
    }

    /// A NEW_SCAN_RESULTS message with ifindex 15 and the given BSS attributes.
    static func message(
        command: UInt8 = NL80211.Command.newScanResults, bss: [NetlinkAttribute]
    ) throws -> [UInt8] {
        var top = NetlinkAttributeWriter()
        try top.append(type: NL80211.Attribute.interfaceIndex, uint32: 15)
        try top.appendNested(type: NL80211.Attribute.bss) { (inner) throws(NetlinkEncodingError) in
            for attribute in bss { try inner.append(type: attribute.type, payload: attribute.payload) }
        }
        return try GenericNetlinkMessage.encode(
            familyID: 32, flags: 2, sequence: 2, command: command, attributes: top.bytes)
    }

    static func replacing(
        _ type: UInt16, with payload: [UInt8]?, in attributes: [NetlinkAttribute]
    ) -> [NetlinkAttribute] {
        attributes.compactMap { attribute in
            guard attribute.type == type else { return attribute }
            return payload.map { NetlinkAttribute(type: type, payload: $0[...]) }
        }
    }

    @Test func theRebuiltMessageStillDecodes() throws {
        let network = try NL80211ScanResultDecoder.decode(message: Self.message(bss: Self.capturedBSS()))
        #expect(network.ssid.bytes == Array("lab-wpa-wpa2".utf8))
    }

    @Test(arguments: [
        (Key.bssid, NL80211Field.bssid), (Key.frequency, .frequency), (Key.capability, .capability),
    ])
    func aMissingRequiredAttributeIsNamed(type: UInt16, field: NL80211Field) throws {
        let bss = Self.replacing(type, with: nil, in: try Self.capturedBSS())
        #expect(throws: NL80211DecodingError.missingAttribute(field)) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        }
    }

    @Test func withoutAnyElementsTheBSSIsRejected() throws {
        var bss = Self.replacing(Key.informationElements, with: nil, in: try Self.capturedBSS())
        bss = Self.replacing(Key.beaconInformationElements, with: nil, in: bss)
        #expect(throws: NL80211DecodingError.missingAttribute(.informationElements)) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        }
    }

    @Test func theBeaconElementsStandInWhenTheLatestAreAbsent() throws {
        let bss = Self.replacing(Key.informationElements, with: nil, in: try Self.capturedBSS())
        let network = try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        #expect(network.ssid.bytes == Array("lab-wpa-wpa2".utf8))
    }

    @Test func aMissingBSSIsNamed() throws {
        var top = NetlinkAttributeWriter()
        try top.append(type: NL80211.Attribute.interfaceIndex, uint32: 15)
        let bytes = try GenericNetlinkMessage.encode(
            familyID: 32, flags: 2, sequence: 2, command: NL80211.Command.newScanResults,
            attributes: top.bytes)
        #expect(throws: NL80211DecodingError.missingAttribute(.bss)) {
            try NL80211ScanResultDecoder.decode(message: bytes)
        }
    }

    @Test func aShortBSSIDIsNamed() throws {
        let bss = Self.replacing(Key.bssid, with: [2, 0, 0, 0, 6], in: try Self.capturedBSS())
        #expect(throws: NL80211DecodingError.invalidBSSIDLength(5)) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        }
    }

    @Test func aWrongSizedIntegerNamesItsField() throws {
        let bss = Self.replacing(Key.signalMBm, with: [0x48, 0xF4], in: try Self.capturedBSS())
        #expect(
            throws: NL80211DecodingError.invalidAttribute(
                .signalMBm, .attributePayloadSize(type: Key.signalMBm, expected: 4, actual: 2))
        ) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        }
    }

    @Test func anUnknownStatusIsNamedAndAKnownOneDecodes() throws {
        let unknown = try Self.capturedBSS() + [NetlinkAttribute(type: Key.status, payload: [7, 0, 0, 0])]
        #expect(throws: NL80211DecodingError.unknownBSSStatus(7)) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: unknown))
        }
        let associated = try Self.capturedBSS() + [NetlinkAttribute(type: Key.status, payload: [1, 0, 0, 0])]
        let result = try NL80211ScanResultDecoder.decodeScanResult(message: Self.message(bss: associated))
        #expect(result.status == .associated)
    }

    @Test func malformedElementsInsideTheBSSAreNamed() throws {
        // SSID element claiming 9 bytes with 3 present.
        let bss = Self.replacing(Key.informationElements, with: [0, 9, 0x61, 0x62, 0x63], in: try Self.capturedBSS())
        #expect(
            throws: NL80211DecodingError.informationElements(
                .elementLengthPastEnd(id: 0, offset: 0, length: 9, available: 3))
        ) {
            try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss))
        }
    }

    @Test func anotherCommandIsRejected() throws {
        #expect(throws: NL80211DecodingError.unexpectedCommand(NL80211.Command.triggerScan)) {
            try NL80211ScanResultDecoder.decode(
                message: Self.message(command: NL80211.Command.triggerScan, bss: Self.capturedBSS()))
        }
    }

    @Test func aDoneMessageIsNotAScanResult() {
        let done: [UInt8] = [20, 0, 0, 0, 3, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(throws: NL80211DecodingError.notAScanResult(messageType: 3)) {
            try NL80211ScanResultDecoder.decode(message: done)
        }
    }

    @Test func aDumpWithoutDoneIsNamed() throws {
        let dump = try WiFiLabFixtures.scanDump()
        #expect(throws: NL80211DecodingError.dumpNotTerminated) {
            try NL80211ScanResultDecoder.decodeDump(Array(dump.dropLast(20)))
        }
    }

    @Test func aNestedLengthPastTheEndNamesTheBSS() throws {
        let bss: [UInt8] = [0x0A, 0x00, 0x01, 0x00, 2, 0, 0, 0]  // BSSID claiming 6 bytes, 4 present
        #expect(
            throws: NL80211DecodingError.invalidAttribute(
                .bss, .attributeLengthPastEnd(offset: 0, length: 10, available: 8))
        ) {
            try NL80211ScanResultDecoder.decode(bssAttributes: bss[...])
        }
    }

    @Test func signalRoundsToTheNearestDBm() throws {
        for (mBm, dBm) in [(-3000, -30), (-3049, -30), (-3050, -31), (-1, 0), (149, 1), (150, 2)] as [(Int32, Int)] {
            let bss = Self.replacing(
                Key.signalMBm, with: withUnsafeBytes(of: mBm) { Array($0) }, in: try Self.capturedBSS())
            #expect(try NL80211ScanResultDecoder.decode(message: Self.message(bss: bss)).signalDBm == dBm)
        }
    }
}
