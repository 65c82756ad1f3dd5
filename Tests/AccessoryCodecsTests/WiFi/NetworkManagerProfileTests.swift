import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("NetworkManager profile for a hotspot join")
struct NetworkManagerProfileTests {
    let uuid = "0f8e5f4a-1b2c-4d3e-8f90-a1b2c3d4e5f6"

    @Test("WPA2: the SSID as bytes, wpa-psk with the passphrase in the profile, bound, no autoconnect, no default route, IPv6 off")
    func wpa2() throws {
        let profile = NetworkManagerProfile(uuid: uuid, interface: "wlan0", ssid: SSID("Lamp-42")!,
                                            credential: .wpa2(try WPAPassphrase("correct horse")))
        #expect(profile.groups.map(\.name) == ["connection", "802-11-wireless", "802-11-wireless-security", "ipv4", "ipv6"])
        #expect(profile.value("connection", "type") == .string("802-11-wireless"))
        #expect(profile.value("connection", "id") == .string("accessoryd-join-wlan0"))
        #expect(profile.value("connection", "uuid") == .string(uuid))
        #expect(profile.value("connection", "interface-name") == .string("wlan0"))
        #expect(profile.value("connection", "autoconnect") == .bool(false))
        #expect(profile.value("802-11-wireless", "ssid") == .bytes(Array("Lamp-42".utf8)))
        #expect(profile.value("802-11-wireless", "security") == .string("802-11-wireless-security"))
        #expect(profile.value("802-11-wireless-security", "key-mgmt") == .string("wpa-psk"))
        guard case .secret(let secret)? = profile.value("802-11-wireless-security", "psk") else {
            Issue.record("no psk")
            return
        }
        #expect(secret.text == "correct horse")
        #expect(profile.value("802-11-wireless-security", "psk-flags") == .uint32(0), "NetworkManager owns it: no agent asked")
        #expect(profile.value("ipv4", "method") == .string("auto"))
        #expect(profile.value("ipv4", "never-default") == .bool(true))
        #expect(profile.value("ipv6", "method") == .string("disabled"))
    }

    @Test("WPA3: sae with management frame protection required")
    func sae() throws {
        let profile = NetworkManagerProfile(uuid: uuid, interface: "wlan0", ssid: SSID("Lamp")!, credential: .sae(try SAEPassword("pw")))
        #expect(profile.value("802-11-wireless-security", "key-mgmt") == .string("sae"))
        #expect(profile.value("802-11-wireless-security", "pmf") == .int32(3))
    }

    @Test("open: no security section at all")
    func open() {
        let profile = NetworkManagerProfile(uuid: uuid, interface: "wlan0", ssid: SSID("Lamp")!, credential: .open)
        #expect(!profile.groups.map(\.name).contains("802-11-wireless-security"))
        #expect(profile.value("802-11-wireless", "security") == nil)
    }

    @Test("the secret never shows when the profile is printed or dumped")
    func redacted() throws {
        let profile = NetworkManagerProfile(uuid: uuid, interface: "wlan0", ssid: SSID("Lamp")!,
                                            credential: .wpa2(try WPAPassphrase("sekrit-passphrase")))
        var dumped = ""
        dump(profile, to: &dumped)
        for text in ["\(profile)", String(reflecting: profile), dumped] {
            #expect(!text.contains("sekrit"), "\(text)")
        }
    }
}
