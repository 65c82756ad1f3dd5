import AccessoryCodecs
import AccessoryCore
import Testing

/// The beacons tcpdump recorded on hwsim0, read with the same element parser and
/// security rule as the nl80211 path.
@Suite("802.11 beacons from the lab capture")
struct BeaconCaptureTests {
    let beacons: [CapturedBeacon]

    init() throws {
        beacons = try CapturedBeacon.all(inPcap: WiFiLabFixtures.bytes("hwsim0-beacons.pcap"))
    }

    @Test func everyBSSWasHeard() {
        #expect(beacons.count == 140)
        #expect(Set(beacons.map(\.bssid.description)) == Set(WiFiLabFixtures.expected.map(\.bssid)))
    }

    @Test(arguments: WiFiLabFixtures.expected)
    func everyBeaconOfABSSParsesToItsConfig(_ expected: WiFiLabFixtures.ExpectedBSS) throws {
        let heard = beacons.filter { $0.bssid.description == expected.bssid }
        #expect(heard.count == 10)
        for beacon in heard {
            let ies = try InformationElements.parse(beacon.elements)
            #expect(ies.ssid?.bytes == expected.ssid)
            #expect(ies.dsChannel.map(Int.init) == expected.channel)
            #expect(ies.band == .ghz2_4)
            #expect(security(fromIEs: ies, capability: beacon.capability) == expected.security)
        }
    }

    @Test func theHiddenBeaconsAreHidden() throws {
        for bssid in ["02:00:00:00:07:00", "02:00:00:00:08:00", "02:00:00:00:0C:01"] {
            let beacon = try #require(beacons.first { $0.bssid.description == bssid })
            #expect(try InformationElements.parse(beacon.elements).ssid?.isHidden == true)
        }
    }
}
