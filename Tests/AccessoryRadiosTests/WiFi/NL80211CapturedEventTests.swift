import AccessoryCodecs
import AccessoryCore
import Testing
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// nl80211 events as the kernel sent them: captured in the lab VM (Debian's
/// 6.1.0-56-amd64, mac80211_hwsim) by Tests/Lab/scenarios/wifi-captures/
/// (see its README): one datagram per event, nl80211's family id was 32.
@Suite struct NL80211CapturedEventTests {
    static let family: UInt16 = 32

    static func octets(_ hex: String) -> [UInt8]? { bytes(fromHex: hex) }

    static func event(_ hex: String) throws -> NL80211Event? {
        let bytes = try #require(Self.octets(hex))
        var reader = NetlinkMessageReader(bytes)
        let message = try #require(try reader.next())
        #expect(try reader.next() == nil, "one message per datagram")
        return try NL80211Event.decode(message, familyID: family)
    }

    /// NEW_INTERFACE when `modprobe mac80211_hwsim radios=2` created wlan0.
    static let newInterfaceWlan0 =
        "680000002000000000000000000000000701000008000300020000000a000400776c616e300000000800010000000000" +
        "08000500020000000c00990001000000000000000a000600020000000000000008002e00050000000500530000000000" +
        "0800620000000000"

    /// TRIGGER_SCAN and NEW_SCAN_RESULTS of `iw dev wlan0 scan freq 2412`.
    static let triggerScan =
        "4400000020000000000000000000000021010000080001000000000008000300020000000c0099000100000000000000" +
        "08002d00040000000c002c00080000006c090000"
    static let newScanResults =
        "4400000020000000000000000000000022010000080001000000000008000300020000000c0099000100000000000000" +
        "08002d00040000000c002c00080000006c090000"

    /// SCAN_ABORTED: `iw dev wlan0 scan trigger`, then `ip link set wlan0 down`.
    static let scanAborted =
        "a402000020000000000000000000000023010000080001000000000008000300020000000c0099000100000000000000" +
        "08002d000400000064022c00080000006c09000008000100710900000800020076090000080003007b09000008000400" +
        "800900000800050085090000080006008a090000080007008f0900000800080094090000080009009909000008000a00" +
        "9e09000008000b00a309000008000c00a809000008000d00b409000008000e003c14000008000f005014000008001000" +
        "641400000800110078140000080012008c14000008001300a014000008001400b414000008001500c814000008001600" +
        "7c150000080017009015000008001800a415000008001900b815000008001a00cc15000008001b00e015000008001c00" +
        "f415000008001d000816000008001e001c16000008001f00301600000800200044160000080021007116000008002200" +
        "85160000080023009916000008002400ad16000008002500c11600000800260086030000080027008703000008002800" +
        "88030000080029008803000008002a008903000008002b008a03000008002c008a03000008002d008b03000008002e00" +
        "8c03000008002f008c030000080030008d030000080031008e030000080032008e030000080033008f03000008003400" +
        "900300000800350090030000080036009103000008003700920300000800380092030000080039009303000008003a00" +
        "9403000008003b009403000008003c009503000008003d009603000008003e009603000008003f009703000008004000" +
        "9803000008004100980300000800420099030000080043009a030000080044009a030000080045009b03000008004600" +
        "9c030000080047009c030000080048009d030000080049009e03000008004a009e03000008004b009f03000008009e00" +
        "00400000"

    /// DEL_INTERFACE of `iw dev wlan1 del`.
    static let deleteInterfaceWlan1 =
        "680000002000000000000000000000000801000008000300030000000a000400776c616e310000000800010001000000" +
        "08000500020000000c00990001000000010000000a000600020000000100000008002e00090000000500530000000000" +
        "0800620000000000"

    @Test func newInterface() throws {
        #expect(try Self.event(Self.newInterfaceWlan0) == .interfaceAdded(WiFiInterfaceInfo(
            name: "wlan0", index: 2, phy: 0, address: HardwareAddress(octets: [2, 0, 0, 0, 0, 0]), type: 2)))
    }

    @Test func scanLifecycle() throws {
        #expect(try Self.event(Self.triggerScan) == .scanStarted(interfaceIndex: 2))
        #expect(try Self.event(Self.newScanResults) == .scanResultsReady(interfaceIndex: 2))
        #expect(try Self.event(Self.scanAborted) == .scanAborted(interfaceIndex: 2))
    }

    @Test func deleteInterface() throws {
        #expect(try Self.event(Self.deleteInterfaceWlan1) == .interfaceRemoved(interfaceIndex: 3))
    }

    @Test func anotherFamilyIdIgnoresThemAll() throws {
        for hex in [Self.newInterfaceWlan0, Self.triggerScan, Self.newScanResults, Self.scanAborted] {
            let message = try NetlinkMessage(parsing: #require(Self.octets(hex)))
            #expect(try NL80211Event.decode(message, familyID: Self.family + 1) == nil)
        }
    }

    @Test func everyTruncationIsANamedErrorOrIgnored() throws {
        // Cut the captured NEW_INTERFACE short at every length and fix up nlmsg_len,
        // as a hostile or broken sender might: never a trap.
        let whole = try #require(Self.octets(Self.newInterfaceWlan0))
        var refused = 0
        for length in NetlinkMessageHeader.length..<whole.count {
            var bytes = Array(whole[..<length])
            withUnsafeBytes(of: UInt32(length).littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
            let message = try NetlinkMessage(parsing: bytes)
            do { _ = try NL80211Event.decode(message, familyID: Self.family) } catch { refused += 1 }
        }
        #expect(refused > 0, "an attribute cut in half is refused, not read past")
    }
}
