import AccessoryCodecs
import AccessoryCore
import Testing
import TestSupport

@Suite("wpa_supplicant replies")
struct WPASupplicantReplyTests {
    @Test("OK, PONG, a new network's id, from the lab")
    func simpleReplies() throws {
        let idle = try WPASupplicantTranscript.load("attach-ping-status-idle")
        try WPAReply.expectOK(try idle.reply(to: "ATTACH"))
        try WPAReply.expectPong(try idle.reply(to: "PING"))
        let uplink = try WPASupplicantTranscript.load("join-uplink")
        #expect(try WPAReply.networkID(try uplink.reply(to: "ADD_NETWORK")).rawValue == 0)
        let wrongKey = try WPASupplicantTranscript.load("wrong-key")
        #expect(try WPAReply.networkID(try wrongKey.reply(to: "ADD_NETWORK")).rawValue == 2)
    }

    @Test("FAIL, FAIL-BUSY and UNKNOWN COMMAND, from the lab, are named errors")
    func failures() throws {
        let transcript = try WPASupplicantTranscript.load("failures")
        for request in ["SELECT_NETWORK 99", "GET_NETWORK 99 ssid", "SET_NETWORK 1 psk \"short\"",
                        "SET_NETWORK 1 ssid 4", "SET_NETWORK 1 nonsense 1"] {
            #expect(throws: WPAReplyError.failed(detail: nil)) { try WPAReply.expectOK(try transcript.reply(to: request)) }
        }
        #expect(throws: WPAReplyError.unknownCommand) { try WPAReply.expectOK(try transcript.reply(to: "NOT_A_COMMAND")) }
        let scans = transcript.replies(to: "SCAN")
        try #require(scans.count == 2)
        try WPAReply.expectOK(scans[0])
        #expect(throws: WPAReplyError.busy) { try WPAReply.expectOK(scans[1]) }
        #expect(throws: WPAReplyError.busy) { try WPAReply.networkID(scans[1]) }
        #expect(throws: WPAReplyError.failed(detail: "CHANNEL-UNAVAILABLE")) {
            try WPAReply.expectOK(Array("FAIL-CHANNEL-UNAVAILABLE\n".utf8))
        }
    }

    @Test("STATUS while idle and while connected")
    func status() throws {
        let idle = try WPAReply.status(try WPASupplicantTranscript.load("attach-ping-status-idle").reply(to: "STATUS"))
        #expect(idle.state == "DISCONNECTED")
        #expect(idle.networkID == nil && idle.ssid == nil && idle.bssid == nil)
        #expect(!idle.isCompleted)

        let joined = try WPAReply.status(try WPASupplicantTranscript.load("join-hotspot-wpa2").reply(to: "STATUS"))
        #expect(joined.isCompleted)
        #expect(joined.networkID?.rawValue == 1)
        #expect(joined.ssid == SSID("Lamp-Setup"))
        #expect(joined.bssid == BSSID("02:00:00:00:02:00"))
        #expect(joined.fields["key_mgmt"] == Array("WPA2-PSK".utf8))

        let sae = try WPAReply.status(try WPASupplicantTranscript.load("sae").reply(to: "STATUS"))
        #expect(sae.fields["key_mgmt"] == Array("SAE".utf8))
        #expect(sae.ssid == SSID("Plug-WPA3"))
    }

    @Test("STATUS undoes wpa_supplicant's escapes in the SSID and reads ip_address")
    func statusEscapes() throws {
        let reply = Array("wpa_state=COMPLETED\nid=4\nssid=a\\\"b\\\\c\\nd\\xff\nip_address=192.168.4.23\n".utf8)
        let status = try WPAReply.status(reply)
        #expect(status.ssid?.bytes == Array("a\"b\\c\nd".utf8) + [0xFF])
        #expect(status.ipAddress == IPv4Address(192, 168, 4, 23))
    }

    @Test("LIST_NETWORKS with [CURRENT], [DISABLED] and [TEMP-DISABLED], from the lab")
    func networkLists() throws {
        let idle = try WPAReply.networkList(try WPASupplicantTranscript.load("attach-ping-status-idle").reply(to: "LIST_NETWORKS"))
        #expect(idle.isEmpty)
        let uplink = try WPAReply.networkList(try WPASupplicantTranscript.load("join-uplink").reply(to: "LIST_NETWORKS"))
        #expect(uplink == [WPANetworkListEntry(id: WPANetworkID(0)!, ssid: SSID("Home-Gateway")!, flags: .current)])
        let hotspot = try WPAReply.networkList(try WPASupplicantTranscript.load("join-hotspot-wpa2").reply(to: "LIST_NETWORKS"))
        #expect(hotspot.map(\.flags) == [.disabled, .current])
        let wrongKey = try WPASupplicantTranscript.load("wrong-key").replies(to: "LIST_NETWORKS")
        #expect(try WPAReply.networkList(wrongKey[0]).map(\.flags) == [.disabled, .disabled, .temporarilyDisabled])
        #expect(try WPAReply.networkList(wrongKey[1]).map(\.flags) == [.current])
    }

    @Test("GET_NETWORK ssid: quoted printable text, hex otherwise")
    func ssidValues() throws {
        let transcript = try WPASupplicantTranscript.load("join-hotspot-wpa2")
        #expect(try WPAReply.ssidValue(try transcript.reply(to: "GET_NETWORK 1 ssid")) == SSID("Lamp-Setup"))
        #expect(throws: WPAReplyError.networkValue) { try WPAReply.ssidValue(try transcript.reply(to: "GET_NETWORK 1 psk")) }
    }

    @Test("malformed replies get named errors", arguments: [
        ("", WPAReplyError.empty),
        ("OKAY\n", .unexpected(prefix: Array("OKAY\n".utf8))),
        ("x1\n", .notANetworkID(prefix: Array("x1\n".utf8))),
    ])
    func malformedSimple(reply: String, error: WPAReplyError) {
        #expect(throws: error) {
            if error == .notANetworkID(prefix: Array(reply.utf8)) { _ = try WPAReply.networkID(Array(reply.utf8)) }
            else { try WPAReply.expectOK(Array(reply.utf8)) }
        }
    }

    @Test("malformed STATUS and LIST_NETWORKS")
    func malformedTables() {
        #expect(throws: WPAReplyError.statusLineWithoutSeparator(line: 2)) { try WPAReply.status(Array("a=b\nnoequals\n".utf8)) }
        #expect(throws: WPAReplyError.statusField("id")) { try WPAReply.status(Array("id=-1\n".utf8)) }
        #expect(throws: WPAReplyError.statusField("bssid")) { try WPAReply.status(Array("bssid=zz\n".utf8)) }
        #expect(throws: WPAReplyError.statusField("ssid")) { try WPAReply.status(Array("ssid=bad\\q\n".utf8)) }
        #expect(throws: WPAReplyError.statusField("ssid")) { try WPAReply.status(Array("ssid=\(String(repeating: "a", count: 33))\n".utf8)) }
        #expect(throws: WPAReplyError.statusField("ip_address")) { try WPAReply.status(Array("ip_address=1.2.3\n".utf8)) }
        #expect(throws: WPAReplyError.networkListHeaderMissing) { try WPAReply.networkList(Array("0\tx\tany\t\n".utf8)) }
        let header = "network id / ssid / bssid / flags\n"
        #expect(throws: WPAReplyError.networkListRow(line: 2)) { try WPAReply.networkList(Array("\(header)0\tx\tany\n".utf8)) }
        #expect(throws: WPAReplyError.networkListRow(line: 3)) { try WPAReply.networkList(Array("\(header)0\ta\tany\t\nq\tx\tany\t\n".utf8)) }
        #expect(throws: WPAReplyError.networkListRow(line: 2)) { try WPAReply.networkList(Array("\(header)0\tx\\x4\tany\t\n".utf8)) }
        #expect(throws: WPAReplyError.networkValue) { try WPAReply.ssidValue(Array("\"".utf8)) }
        #expect(throws: WPAReplyError.networkValue) { try WPAReply.ssidValue(Array("abc".utf8)) }
    }

    /// The fixed seed of `randomReplies`, named in every failure so that it can be replayed.
    static let randomRepliesSeed: UInt64 = 0x5EED_0025

    @Test("random bytes never crash the reply parsers, which answer the same bytes the same way and both accept and refuse some")
    func randomReplies() {
        var generator = SplitMix64(seed: Self.randomRepliesSeed)
        let alphabet = Array("=\t\n\\\"x0aFOKAIL-[]CURRENT ".utf8) + [0xFF, 0x00]
        // Whether accepted, or the error refusing it (a value's description may list a dictionary in any order).
        func outcome(_ parse: () throws -> Any) -> String {
            do { _ = try parse(); return "accepted" } catch { return "refused \(error)" }
        }
        func outcomes(_ reply: [UInt8]) -> [String] {
            [
                outcome { try WPAReply.status(reply) },
                outcome { try WPAReply.networkList(Array("network id / ssid / bssid / flags\n".utf8) + reply) },
                outcome { try WPAReply.ssidValue(reply) },
                outcome { try WPAReply.networkID(reply) },
                outcome { try WPAEventParser.parse(Array("<3>CTRL-EVENT-SSID-TEMP-DISABLED ".utf8) + reply) },
            ]
        }
        var accepted = 0
        var refused = 0
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            let reply = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let first = outcomes(reply)
            // Pure over bytes: the same reply gets the same answer.
            #expect(outcomes(reply) == first, "reply \(reply), seed \(Self.randomRepliesSeed)")
            accepted += first.filter { $0.hasPrefix("accepted") }.count
            refused += first.filter { $0.hasPrefix("refused") }.count
        }
        // Both paths were reached, so the run exercised more than the parsers' first check.
        #expect(accepted > 0, "seed \(Self.randomRepliesSeed)")
        #expect(refused > 0, "seed \(Self.randomRepliesSeed)")
    }
}
