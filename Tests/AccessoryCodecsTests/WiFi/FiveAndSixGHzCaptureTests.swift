import AccessoryCodecs
import AccessoryCore
import Testing

/// The second lab capture: hostapd on 5 GHz (channel 36, HT40+, VHT and HE at
/// 80 MHz) and on 6 GHz (channel 5, HE only, SAE), regulatory domain DE.
@Suite("nl80211 scan results on 5 and 6 GHz from the lab capture")
struct FiveAndSixGHzCaptureTests {
    let results: [NL80211ScanResult]

    init() throws {
        results = try NL80211ScanResultDecoder.decodeDump(
            WiFiLabFixtures.bytes("nl80211-get-scan-dump-5-6ghz.bin"))
    }

    func result(_ bssid: String) throws -> NL80211ScanResult {
        try #require(results.first { $0.bssid.description == bssid })
    }

    @Test func theFiveGHzBSS() throws {
        let bss = try result("02:00:00:00:00:00")
        let network = bss.network
        #expect(network.ssid.bytes == Array("lab-5ghz".utf8))
        #expect(network.frequencyMHz == 5180)
        #expect(network.channel == 36)
        #expect(network.band == .ghz5)
        #expect(network.security == [.wpa2PSK, .wpa3SAE])
        #expect(network.signalDBm == -27)
        #expect(network.interfaceIndex == 4)
        let ies = bss.parsedIEs
        #expect(ies.htOperation?.primaryChannel == 36)
        #expect(ies.htOperation?.secondaryChannelOffset == .above)
        #expect(ies.vhtOperation?.channelWidth == 1)
        #expect(ies.vhtOperation?.centerFrequencySegment0 == 42)
        #expect(ies.heOperation != nil)
        #expect(ies.heOperation?.sixGHzOperation == nil)
        // hostapd sends a DS Parameter Set on 5 GHz as well; the band still reads right.
        #expect(ies.primaryChannel == 36)
        #expect(ies.band == .ghz5)
    }

    @Test func theSixGHzBSS() throws {
        let bss = try result("02:00:00:00:01:00")
        let network = bss.network
        #expect(network.ssid.bytes == Array("lab-6ghz".utf8))
        #expect(network.frequencyMHz == 5975)
        #expect(network.channel == 5)
        #expect(network.band == .ghz6)
        #expect(network.security == .wpa3SAE)
        let ies = bss.parsedIEs
        #expect(ies.rsn?.capabilities.contains(.managementFrameProtectionRequired) == true)
        let sixGHz = try #require(ies.heOperation?.sixGHzOperation)
        #expect(sixGHz.primaryChannel == 5)
        #expect(ies.htOperation == nil)
        #expect(ies.vhtOperation == nil)
        #expect(ies.primaryChannel == 5)
        #expect(ies.band == .ghz6)
    }
}
