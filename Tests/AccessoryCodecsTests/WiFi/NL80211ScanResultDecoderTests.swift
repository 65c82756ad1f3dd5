import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("nl80211 scan results from the lab capture")
struct NL80211ScanResultDecoderTests {
    let results: [NL80211ScanResult]

    init() throws {
        results = try NL80211ScanResultDecoder.decodeDump(WiFiLabFixtures.scanDump())
    }

    @Test func theDumpHoldsEveryBSSTheLabServed() {
        #expect(results.count == 14)
        #expect(Set(results.map(\.bssid.description)) == Set(WiFiLabFixtures.expected.map(\.bssid)))
    }

    @Test(arguments: WiFiLabFixtures.expected)
    func eachBSSDecodesToWhatItsHostapdConfigSays(_ expected: WiFiLabFixtures.ExpectedBSS) throws {
        let result = try #require(results.first { $0.bssid.description == expected.bssid })
        let network = result.network
        #expect(network.ssid.bytes == expected.ssid)
        #expect(network.channel == expected.channel)
        #expect(network.band == .ghz2_4)
        #expect(network.security == expected.security)
        // mac80211_hwsim reports every frame at -30 dBm.
        #expect(result.signalMBm == -3000)
        #expect(network.signalDBm == -30)
        #expect(network.interfaceIndex == 15)
        #expect(network.seenMillisecondsAgo != nil)
        #expect(result.status == nil)
        #expect(network.informationElements == result.informationElements)
        // hostapd's DS Parameter Set agrees with the kernel's frequency.
        #expect(result.parsedIEs.dsChannel.map(Int.init) == expected.channel)
    }

    @Test func hiddenNetworksKeepTheirEmptyOrZeroedSSID() throws {
        let empty = try #require(results.first { $0.bssid.description == "02:00:00:00:07:00" })
        #expect(empty.network.ssid.isHidden)
        #expect(empty.network.ssid.bytes.isEmpty)
        let zeroed = try #require(results.first { $0.bssid.description == "02:00:00:00:08:00" })
        #expect(zeroed.network.ssid.isHidden)
        #expect(zeroed.network.ssid.bytes.count == 17)
    }

    @Test func aNonUTF8SSIDKeepsItsBytesAndDisplaysEscaped() throws {
        let result = try #require(results.first { $0.bssid.description == "02:00:00:00:05:00" })
        #expect(result.network.ssid.utf8Text == nil)
        // The form `iw` printed for the same BSS in iw-scan-wlan13.txt is `A\xff\x5c\x00B`.
        #expect(result.network.ssid.displayName == "A\\xff\\x5c\\x00B")
    }

    @Test func theCapabilityPrivacyBitIsSetExactlyForTheProtectedNetworks() {
        for result in results {
            let isProtected = !result.security.contains(.open)
            #expect((result.capability & CapabilityInformation.privacy != 0) == isProtected)
        }
    }

    @Test func theOWETransitionPairNamesEachOther() throws {
        let open = try #require(results.first { $0.bssid.description == "02:00:00:00:0C:00" })
        let twin = try #require(open.parsedIEs.oweTransition)
        #expect(twin.bssid.description == "02:00:00:00:0C:01")
        #expect(twin.ssid.bytes == Array("lab-owe-tm-hidden".utf8))
        let hidden = try #require(results.first { $0.bssid.description == "02:00:00:00:0C:01" })
        #expect(hidden.parsedIEs.oweTransition?.bssid.description == "02:00:00:00:0C:00")
        #expect(hidden.parsedIEs.rsn?.capabilities.contains(.managementFrameProtectionRequired) == true)
    }

    @Test func theRSNElementsCarryTheConfiguredSuites() throws {
        func rsn(_ bssid: String) throws -> RSNElement {
            try #require(results.first { $0.bssid.description == bssid }?.parsedIEs.rsn)
        }
        let transition = try rsn("02:00:00:00:03:00")
        #expect(transition.akmSuites == [.ieee80211(2), .ieee80211(8)])
        #expect(transition.pairwiseCiphers == [.ccmp])
        #expect(transition.capabilities.contains(.managementFrameProtectionCapable))
        #expect(!transition.capabilities.contains(.managementFrameProtectionRequired))
        let sae = try rsn("02:00:00:00:02:00")
        #expect(sae.capabilities.contains(.managementFrameProtectionRequired))
        let mixed = try #require(results.first { $0.bssid.description == "02:00:00:00:06:00" })
        #expect(mixed.parsedIEs.rsn?.groupCipher == .tkip)
        #expect(mixed.parsedIEs.wpa?.akmSuites == [.wpa(2)])
        #expect(mixed.parsedIEs.wpa?.pairwiseCiphers == [.wpaTKIP])
    }

    @Test func theHEBSSCarriesHTAndHEOperation() throws {
        let he = try #require(results.first { $0.bssid.description == "02:00:00:00:0B:00" })
        #expect(he.parsedIEs.htOperation?.primaryChannel == 11)
        #expect(he.parsedIEs.heOperation != nil)
        #expect(he.parsedIEs.heOperation?.sixGHzOperation == nil)
        #expect(he.parsedIEs.primaryChannel == 11)
        #expect(he.parsedIEs.band == .ghz2_4)
    }

    @Test func eachMessageAloneDecodesLikeTheDump() throws {
        let dump = try WiFiLabFixtures.scanDump()
        var decoded: [WiFiNetwork] = []
        var offset = 0
        var reader = NetlinkMessageReader(dump)
        while let message = try reader.next(),
            message.header.type != NetlinkMessageHeader.MessageType.done
        {
            let length = Int(message.header.length)
            decoded.append(
                try NL80211ScanResultDecoder.decode(message: Array(dump[offset..<offset + length])))
            offset += (length + 3) / 4 * 4
        }
        #expect(decoded == results.map(\.network))
    }

    @Test func theBSSPayloadAloneDecodesWithoutTheInterface() throws {
        let dump = try WiFiLabFixtures.scanDump()
        let message = try GenericNetlinkMessage(NetlinkMessage(parsing: dump))
        let bss = try #require(message.attributes[NL80211.Attribute.bss])
        let network = try NL80211ScanResultDecoder.decode(bssAttributes: bss.payload)
        #expect(network.interfaceIndex == nil)
        #expect(network.bssid == results[0].bssid)
    }
}
