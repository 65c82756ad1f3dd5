import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// TRIGGER_SCAN as sent: read back with the codecs' parser, attribute by attribute.
/// Attribute numbers are those of <linux/nl80211.h>.
@Suite struct NL80211ScanRequestTests {
    static let interfaceIndex: UInt16 = 3  // NL80211_ATTR_IFINDEX
    static let scanFrequencies: UInt16 = 44  // NL80211_ATTR_SCAN_FREQUENCIES
    static let scanSSIDs: UInt16 = 45  // NL80211_ATTR_SCAN_SSIDS

    func decode(_ request: NL80211ScanRequest) throws -> GenericNetlinkMessage {
        try GenericNetlinkMessage(parsing: request.encode(familyID: 0x1c, sequence: 77))
    }

    @Test func headerAsksForAnAcknowledgement() throws {
        let message = try decode(NL80211ScanRequest(interfaceIndex: 5, probing: .passive))
        #expect(message.header.type == 0x1c)
        #expect(message.header.sequence == 77)
        #expect(message.header.flags == NetlinkMessageHeader.Flags.request | NetlinkMessageHeader.Flags.acknowledge)
        #expect(message.command == 33)  // NL80211_CMD_TRIGGER_SCAN
    }

    @Test func passiveScanSendsNoSSIDs() throws {
        let message = try decode(NL80211ScanRequest(interfaceIndex: 5, probing: .passive))
        #expect(message.attributes.types == [Self.interfaceIndex])
        #expect(try message.attributes[Self.interfaceIndex]?.uint32() == 5)
    }

    @Test func activeScanProbesTheWildcardThenEachSSIDOnce() throws {
        let hidden = SSID(bytes: [0x43, 0x61, 0x6D, 0xFF])!
        let message = try decode(NL80211ScanRequest(
            interfaceIndex: 9, probing: .active(ssids: [hidden, SSID(bytes: [])!, hidden, SSID("Plug")!])))
        let ssids = try #require(message.attributes[Self.scanSSIDs])
        #expect(ssids.isNested)
        let list = try ssids.nested().all
        #expect(list.map { Array($0.payload) } == [[], hidden.bytes, Array("Plug".utf8)])
        #expect(list.map(\.type) == [1, 2, 3])
    }

    @Test func frequenciesAreANestedListOfU32() throws {
        let message = try decode(NL80211ScanRequest(
            interfaceIndex: 9, probing: .active(ssids: []), frequenciesMHz: [2412, 5180]))
        let frequencies = try #require(message.attributes[Self.scanFrequencies]).nested().all
        #expect(try frequencies.map { try $0.uint32() } == [2412, 5180])
        #expect(message.attributes.types == [Self.interfaceIndex, Self.scanSSIDs, Self.scanFrequencies])
    }
}
