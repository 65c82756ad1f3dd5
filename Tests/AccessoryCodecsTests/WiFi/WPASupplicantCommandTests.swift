import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("wpa_supplicant commands")
struct WPASupplicantCommandTests {
    private func id(_ n: Int) throws -> WPANetworkID { try #require(WPANetworkID(n)) }

    @Test("the join commands are byte for byte what the lab's wpa_supplicant accepted")
    func joinCommandsMatchCapture() throws {
        let transcript = try WPASupplicantTranscript.load("join-hotspot-wpa2")
        let one = try id(1)
        let commands: [WPACommand] = [
            .addNetwork,
            .setNetwork(one, .ssid(try #require(SSID("Lamp-Setup")))),
            .setNetwork(one, .psk(try WPAPassphrase("lamp pass \"quoted\" phrase"))),
            .setNetwork(one, .keyManagement([.psk])),
            .setNetwork(one, .scanSSID(true)),
            .selectNetwork(one),
            .status, .listNetworks, .getNetwork(one, .ssid),
        ]
        #expect(commands.map(\.bytes) == Array(transcript.sent.prefix(commands.count)))
        // …and each got OK (or its answer), so wpa_supplicant parsed them as meant.
        for command in commands[1...5] {
            try WPAReply.expectOK(try transcript.reply(to: String(decoding: command.bytes, as: UTF8.self)))
        }
    }

    @Test("an SAE password goes as hex and was accepted")
    func saePasswordMatchesCapture() throws {
        let transcript = try WPASupplicantTranscript.load("sae")
        let one = try id(1)
        let commands: [WPACommand] = [
            .setNetwork(one, .ssid(try #require(SSID("Plug-WPA3")))),
            .setNetwork(one, .saePassword(try SAEPassword("plug sae password"))),
            .setNetwork(one, .keyManagement([.sae])),
            .setNetwork(one, .managementFrameProtection(.required)),
        ]
        #expect(commands.map(\.bytes) == Array(transcript.sent[1...4]))
    }

    @Test("a credential expands to the settings of its network block")
    func credentialSettings() throws {
        let sae = try SAEPassword("pw")
        #expect(WPACredential.open.networkSettings == [.keyManagement([.none])])
        #expect(WPACredential.sae(sae).networkSettings
            == [.keyManagement([.sae]), .managementFrameProtection(.required), .saePassword(sae)])
        #expect(WPACommand.setNetwork(try id(0), .keyManagement([.psk, .sae])).bytes
            == Array("SET_NETWORK 0 key_mgmt WPA-PSK SAE".utf8))
    }

    static let hostileSSIDs: [[UInt8]] = [
        Array("say \"hi\"".utf8), Array("back\\slash".utf8), Array("new\nline".utf8),
        [0xFF, 0xFE] + Array(" not utf8".utf8), [0x5C, 0x22, 0x0A, 0x00, 0x78],
    ]

    @Test("hostile SSIDs go as hex, and wpa_supplicant stored exactly those bytes", arguments: hostileSSIDs)
    func hostileSSID(bytes: [UInt8]) throws {
        let transcript = try WPASupplicantTranscript.load("hostile-ssids")
        let command = WPACommand.setNetwork(try id(1), .ssid(try #require(SSID(bytes: bytes))))
        #expect(!command.bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C })
        #expect(transcript.sent.contains(command.bytes))
        try WPAReply.expectOK(try transcript.reply(to: String(decoding: command.bytes, as: UTF8.self)))
        // The GET_NETWORK after each SET_NETWORK read back that very SSID.
        let index = try #require(transcript.sent.firstIndex(of: command.bytes))
        let readBack = transcript.replies(to: "GET_NETWORK 1 ssid")[index / 4]
        #expect(try WPAReply.ssidValue(readBack).bytes == bytes)
    }

    @Test("passphrases with quotes and spaces are quoted as they are")
    func passphraseWithQuotes() throws {
        let command = WPACommand.setNetwork(try id(3), .psk(try WPAPassphrase("a \"b\" c d")))
        #expect(command.bytes == Array("SET_NETWORK 3 psk \"a \"b\" c d\"".utf8))
        let raw = String(repeating: "0123456789abcdef", count: 4)
        #expect(WPACommand.setNetwork(try id(3), .psk(try WPAPassphrase(raw))).bytes
            == Array("SET_NETWORK 3 psk \(raw)".utf8))
    }

    @Test("passphrase rules: 8–63 printable ASCII or 64 hex digits, refused by name")
    func passphraseRules() throws {
        #expect(throws: WPACredentialError.passphraseLength(7)) { try WPAPassphrase("1234567") }
        #expect(throws: WPACredentialError.passphraseLength(0)) { try WPAPassphrase("") }
        #expect(throws: WPACredentialError.passphraseLength(65)) { try WPAPassphrase(String(repeating: "a", count: 65)) }
        #expect(throws: WPACredentialError.passphraseCharacter(offset: 4)) { try WPAPassphrase("abcd\nefgh") }
        #expect(throws: WPACredentialError.passphraseCharacter(offset: 8)) { try WPAPassphrase(bytes: Array("abcdefgh".utf8) + [0xC3, 0xA9]) }
        #expect(throws: WPACredentialError.pskHexDigit(offset: 63)) { try WPAPassphrase(String(repeating: "a", count: 63) + "g") }
        #expect(try WPAPassphrase("12345678").form == .passphrase)
        #expect(try WPAPassphrase(String(repeating: "~", count: 63)).form == .passphrase)
        #expect(try WPAPassphrase(String(repeating: "F", count: 64)).form == .rawPSK)
    }

    @Test("SAE password rules: 1–128 bytes, no control characters; UTF-8 and quotes allowed")
    func saeRules() throws {
        #expect(throws: WPACredentialError.saePasswordLength(0)) { try SAEPassword("") }
        #expect(throws: WPACredentialError.saePasswordLength(129)) { try SAEPassword(String(repeating: "x", count: 129)) }
        #expect(throws: WPACredentialError.saePasswordControlCharacter(offset: 1)) { try SAEPassword("a\u{7F}") }
        #expect(throws: WPACredentialError.saePasswordControlCharacter(offset: 0)) { try SAEPassword(bytes: [0, 0x41]) }
        let password = try SAEPassword("pässwört \"x\"")
        #expect(WPACommand.setNetwork(try id(0), .saePassword(password)).bytes
            == Array("SET_NETWORK 0 sae_password \(hexString(Array("pässwört \"x\"".utf8)))".utf8))
    }

    @Test("a secret never renders into text: description, interpolation, debug, dump")
    func secretsAreRedacted() throws {
        let secret = "hunter2-secret"
        let commands: [WPACommand] = [
            .setNetwork(try id(1), .psk(try WPAPassphrase(secret))),
            .setNetwork(try id(1), .saePassword(try SAEPassword(secret))),
        ]
        for command in commands {
            var dumped = ""
            dump(command, to: &dumped)
            for text in ["\(command)", String(describing: command), String(reflecting: command), dumped] {
                #expect(!text.contains(secret), "\(text)")
                #expect(!text.contains(hexString(Array(secret.utf8))), "\(text)")
            }
            #expect("\(command)".hasSuffix("<redacted>"))
            // The datagram itself does carry it: that is what wpa_supplicant needs.
            let sent = String(decoding: command.bytes, as: UTF8.self)
            #expect(sent.contains(secret) || sent.contains(hexString(Array(secret.utf8))))
        }
        let credential = WPACredential.wpa2(try WPAPassphrase(secret))
        var dumped = ""
        dump(credential, to: &dumped)
        #expect(!"\(credential) \(String(reflecting: credential)) \(dumped)".contains(secret))
    }

    @Test("network ids are non-negative decimal numbers")
    func networkIDs() {
        #expect(WPANetworkID(-1) == nil)
        #expect(WPANetworkID(text: "12")?.rawValue == 12)
        for bad in ["", "-1", "1a", " 1", "99999999999999999999", "+3"] { #expect(WPANetworkID(text: bad) == nil) }
    }
}
