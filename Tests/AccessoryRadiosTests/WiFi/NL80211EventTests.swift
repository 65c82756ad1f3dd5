import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// Events as the `scan` and `config` groups carry them. The messages are built
/// here from named fields (not captured): command and attribute numbers from
/// <linux/nl80211.h>, the layout the kernel's nl80211_send_iface and
/// nl80211_send_scan_msg produce.
@Suite struct NL80211EventTests {
    static let family: UInt16 = 0x1c

    func message(
        type: UInt16 = family, command: UInt8, _ build: (inout NetlinkAttributeWriter) throws -> Void
    ) throws -> NetlinkMessage {
        var writer = NetlinkAttributeWriter()
        try build(&writer)
        let bytes = try GenericNetlinkMessage.encode(
            familyID: type, flags: 0, sequence: 0, command: command, version: 1, attributes: writer.bytes)
        return try NetlinkMessage(parsing: bytes)
    }

    @Test(arguments: [
        (UInt8(33), NL80211Event.scanStarted(interfaceIndex: 4)),  // NL80211_CMD_TRIGGER_SCAN
        (34, .scanResultsReady(interfaceIndex: 4)),  // NL80211_CMD_NEW_SCAN_RESULTS
        (35, .scanAborted(interfaceIndex: 4)),  // NL80211_CMD_SCAN_ABORTED
        (8, .interfaceRemoved(interfaceIndex: 4)),  // NL80211_CMD_DEL_INTERFACE
    ])
    func scanAndRemovalEvents(command: UInt8, expected: NL80211Event) throws {
        let event = try NL80211Event.decode(
            message(command: command) { try $0.append(type: 1, uint32: 0); try $0.append(type: 3, uint32: 4) },
            familyID: Self.family)
        #expect(event == expected)
    }

    @Test func newInterfaceCarriesNamePhyAddressAndType() throws {
        let event = try NL80211Event.decode(message(command: 7) {  // NL80211_CMD_NEW_INTERFACE
            try $0.append(type: 3, uint32: 12)  // IFINDEX
            try $0.append(type: 4, payload: Array("wlan7".utf8) + [0])  // IFNAME, NUL-terminated
            try $0.append(type: 1, uint32: 2)  // WIPHY
            try $0.append(type: 5, uint32: 2)  // IFTYPE station
            try $0.append(type: 6, payload: [0x02, 0, 0, 0, 0x07, 0])  // MAC
        }, familyID: Self.family)
        #expect(event == .interfaceAdded(WiFiInterfaceInfo(
            name: "wlan7", index: 12, phy: 2, address: HardwareAddress(octets: [2, 0, 0, 0, 7, 0]), type: 2)))
        guard case .interfaceAdded(let info)? = event else { return }
        #expect(info.isStation)
    }

    @Test func otherFamiliesAndCommandsAreIgnored() throws {
        let otherFamily = try message(type: 0x1d, command: 34) { try $0.append(type: 3, uint32: 4) }
        #expect(try NL80211Event.decode(otherFamily, familyID: Self.family) == nil)
        let regulatory = try message(command: 36) { try $0.append(type: 3, uint32: 4) }  // REG_CHANGE
        #expect(try NL80211Event.decode(regulatory, familyID: Self.family) == nil)
        let noInterface = try message(command: 34) { try $0.append(type: 1, uint32: 0) }
        #expect(try NL80211Event.decode(noInterface, familyID: Self.family) == nil)
    }

    @Test func malformedAttributesAreNamedErrors() throws {
        let shortIndex = try message(command: 34) { try $0.append(type: 3, uint16: 4) }
        #expect(throws: NetlinkDecodingError.attributePayloadSize(type: 3, expected: 4, actual: 2)) {
            try NL80211Event.decode(shortIndex, familyID: Self.family)
        }
    }

    @Test func onlyStationsAreStations() {
        let accessPoint = WiFiInterfaceInfo(name: "wlan1", index: 5, phy: 1, address: nil, type: 3)
        #expect(!accessPoint.isStation)
        #expect(WiFiInterfaceInfo(name: "wlan1", index: 5, phy: 1, address: nil, type: nil).isStation)
    }
}
