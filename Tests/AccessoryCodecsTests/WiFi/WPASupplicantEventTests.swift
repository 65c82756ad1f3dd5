import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("wpa_supplicant events")
struct WPASupplicantEventTests {
    private func events(_ name: String) throws -> [WPAEvent] {
        try WPASupplicantTranscript.load(name).events.map { try WPAEventParser.parse($0).event }
    }

    @Test("every event the lab recorded parses")
    func allCapturedEventsParse() throws {
        for name in ["attach-ping-status-idle", "join-uplink", "join-hotspot-wpa2", "wrong-key", "not-found", "sae", "failures"] {
            for datagram in try WPASupplicantTranscript.load(name).events {
                let message = try WPAEventParser.parse(datagram)
                #expect(message.level <= 4)
            }
        }
    }

    @Test("a join: CONNECTED with the BSSID and the network's id")
    func connected() throws {
        let all = try events("join-hotspot-wpa2")
        #expect(all.first == .other("CTRL-EVENT-NETWORK-ADDED"))
        #expect(all.contains(.disconnected(bssid: BSSID("02:00:00:00:01:00"), reason: 3, locallyGenerated: true)))
        #expect(all.last == .connected(bssid: BSSID("02:00:00:00:02:00"), networkID: WPANetworkID(1)))
    }

    @Test("a wrong passphrase: the 4-way handshake fails, then TEMP-DISABLED reason=WRONG_KEY")
    func wrongKey() throws {
        let all = try events("wrong-key")
        let handshake = try #require(all.firstIndex(of: .fourWayHandshakeFailed))
        let disabled = try #require(all.firstIndex(of: .temporarilyDisabled(networkID: WPANetworkID(2), reason: "WRONG_KEY")))
        #expect(handshake < disabled)
        #expect(all.contains(.disconnected(bssid: BSSID("02:00:00:00:02:00"), reason: 15, locallyGenerated: false)))
        #expect(all.contains(.scanStarted) && all.contains(.scanResults))
        let level = try WPASupplicantTranscript.load("wrong-key").events.map { try WPAEventParser.parse($0).level }
        #expect(level.contains(4))  // "<4>Failed to initiate AP scan"
    }

    @Test("an absent SSID: NETWORK-NOT-FOUND")
    func notFound() throws {
        #expect(try events("not-found").contains(.networkNotFound))
    }

    @Test("association and authentication rejections carry the status code")
    func rejections() throws {
        // The format of wpa_supplicant 2.10's events.c/sme.c (not captured: hwsim does not reject here).
        #expect(try WPAEventParser.parse(Array("<3>CTRL-EVENT-ASSOC-REJECT bssid=02:00:00:00:02:00 status_code=17".utf8)).event
            == .associationRejected(bssid: BSSID("02:00:00:00:02:00"), status: 17))
        #expect(try WPAEventParser.parse(Array("<3>CTRL-EVENT-ASSOC-REJECT status_code=1 timeout".utf8)).event
            == .associationRejected(bssid: nil, status: 1))
        #expect(try WPAEventParser.parse(Array("<3>CTRL-EVENT-AUTH-REJECT 02:00:00:00:02:00 auth_type=3 auth_transaction=2 status_code=1".utf8)).event
            == .authenticationRejected(status: 1))
    }

    @Test("a quoted SSID with spaces, = and escaped quotes does not split the fields")
    func quotedSSIDInEvent() throws {
        let text = "<3>CTRL-EVENT-SSID-TEMP-DISABLED id=7 ssid=\"a \\\" reason=FAKE b\" auth_failures=2 duration=20 reason=WRONG_KEY"
        #expect(try WPAEventParser.parse(Array(text.utf8)).event == .temporarilyDisabled(networkID: WPANetworkID(7), reason: "WRONG_KEY"))
    }

    @Test("malformed events get named errors")
    func malformed() {
        #expect(throws: WPAEventError.missingLevel) { try WPAEventParser.parse([]) }
        #expect(throws: WPAEventError.missingLevel) { try WPAEventParser.parse(Array("OK\n".utf8)) }
        #expect(throws: WPAEventError.missingLevel) { try WPAEventParser.parse(Array("<x>CTRL-EVENT-CONNECTED".utf8)) }
        #expect(throws: WPAEventError.missingLevel) { try WPAEventParser.parse(Array("<3".utf8)) }
        #expect(throws: WPAEventError.missingField(event: "CTRL-EVENT-ASSOC-REJECT", field: "status_code")) {
            try WPAEventParser.parse(Array("<3>CTRL-EVENT-ASSOC-REJECT bssid=02:00:00:00:02:00".utf8))
        }
        #expect(throws: WPAEventError.malformedField(event: "CTRL-EVENT-ASSOC-REJECT", field: "status_code")) {
            try WPAEventParser.parse(Array("<3>CTRL-EVENT-ASSOC-REJECT status_code=99999999".utf8))
        }
        #expect(throws: WPAEventError.malformedField(event: "CTRL-EVENT-DISCONNECTED", field: "reason")) {
            try WPAEventParser.parse(Array("<3>CTRL-EVENT-DISCONNECTED reason=x".utf8))
        }
        #expect(throws: WPAEventError.missingField(event: "CTRL-EVENT-SSID-TEMP-DISABLED", field: "reason")) {
            try WPAEventParser.parse(Array("<3>CTRL-EVENT-SSID-TEMP-DISABLED id=1 ssid=\"unterminated".utf8))
        }
        #expect(throws: WPAEventError.malformedField(event: "CTRL-EVENT-CONNECTED", field: "id")) {
            try WPAEventParser.parse(Array("<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:02:00 completed [id=z".utf8))
        }
    }
}
