import AccessoryCore
import Testing
@testable import AccessoryDaemon

@Suite struct MonitorLineWiFiTests {
    func line(ssid: [UInt8], signal: Int? = -42, frequency: UInt32 = 2437, security: WiFiSecurity = .wpa2PSK) -> String {
        let network = WiFiNetwork(
            bssid: HardwareAddress(octets: [0x02, 0, 0, 0, 0x01, 0xAB])!, ssid: SSID(bytes: ssid)!,
            frequencyMHz: frequency, signalDBm: signal, security: security,
            interfaceIndex: UInt32.max)  // no such interface: printed by index
        return MonitorLine.format(.wifi(network, matches: []))
    }

    @Test func printsEveryField() {
        #expect(line(ssid: Array("Vendor-4F2C".utf8))
            == #"wifi ifindex4294967295 02:00:00:00:01:ab ssid=56656e646f722d34463243 freq=2437 channel=6 signal=-42 security=wpa2-psk name="Vendor-4F2C""#)
    }

    @Test func quotesAndBackslashesStayUnambiguous() {
        let text = line(ssid: Array(#"Lamp 💡 "Hue" \ 2"#.utf8), security: .open)
        #expect(text.hasSuffix(#"security=open name="Lamp 💡 \"Hue\" \\ 2""#))
        #expect(text.contains("ssid=4c616d7020f09f92a1202248756522205c2032 "))
    }

    @Test func bytesThatAreNotUTF8AreEscaped() {
        let text = line(ssid: [0x41, 0xFF, 0x22, 0x5C, 0x00, 0x42])
        #expect(text.contains("ssid=41ff225c0042 "))
        #expect(text.hasSuffix(#"name="A\xff\"\x5c\x00B""#))
    }

    @Test func unknownValuesPrintAsQuestionMarks() {
        let text = line(ssid: [], signal: nil, frequency: 2000, security: [])
        #expect(text.contains(#" ssid= freq=2000 channel=? signal=? security=unknown name="""#))
    }

    @Test func matchesFollowTheName() {
        let network = WiFiNetwork(
            bssid: HardwareAddress(octets: [2, 0, 0, 0, 0, 0])!, ssid: SSID("a b")!, frequencyMHz: 2412)
        let match = DescriptorMatch(app: AppID("lab"), descriptorID: DescriptorID(2))
        #expect(MonitorLine.format(.wifi(network, matches: [match])).contains(#"name="a b" matches=lab"#))
    }
}
