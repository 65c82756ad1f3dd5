import AccessoryCore
import Foundation
import Testing

/// The lab captures under Fixtures/wifi (see the README there) and what the
/// hostapd configs they were captured from say each BSS is.
enum WiFiLabFixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let base = try #require(Bundle.module.resourceURL)
        let url = base.appendingPathComponent("Fixtures/wifi").appendingPathComponent(name)
        return Array(try Data(contentsOf: url))
    }

    static func scanDump() throws -> [UInt8] { try bytes("nl80211-get-scan-dump.bin") }

    struct ExpectedBSS: Sendable, CustomTestStringConvertible {
        let bssid: String
        let ssid: [UInt8]
        let channel: Int
        let security: WiFiSecurity
        var testDescription: String { "\(bssid) \(hexString(ssid))" }
    }

    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// From lab/hostapd/*.conf: interface wlanN has BSSID 02:00:00:00:0N:00.
    static let expected: [ExpectedBSS] = [
        .init(bssid: "02:00:00:00:00:00", ssid: text("lab-open"), channel: 1, security: .open),
        .init(bssid: "02:00:00:00:01:00", ssid: text("lab-wpa2-psk"), channel: 6, security: .wpa2PSK),
        .init(bssid: "02:00:00:00:02:00", ssid: text("lab-wpa3-sae"), channel: 11, security: .wpa3SAE),
        .init(bssid: "02:00:00:00:03:00", ssid: text("lab-wpa2-wpa3"), channel: 1,
              security: [.wpa2PSK, .wpa3SAE]),
        .init(bssid: "02:00:00:00:04:00", ssid: text("lab-owe"), channel: 6, security: .owe),
        .init(bssid: "02:00:00:00:05:00", ssid: [0x41, 0xFF, 0x5C, 0x00, 0x42], channel: 11,
              security: .open),
        .init(bssid: "02:00:00:00:06:00", ssid: text("lab-wpa-wpa2"), channel: 1,
              security: [.wpa, .wpa2PSK]),
        .init(bssid: "02:00:00:00:07:00", ssid: [], channel: 6, security: .open),
        .init(bssid: "02:00:00:00:08:00", ssid: Array(repeating: 0, count: 17), channel: 11,
              security: .open),
        .init(bssid: "02:00:00:00:09:00", ssid: text("lab-wpa2-enterprise"), channel: 1,
              security: .enterprise),
        .init(bssid: "02:00:00:00:0A:00", ssid: text("lab-wep"), channel: 6, security: .wep),
        .init(bssid: "02:00:00:00:0B:00", ssid: text("lab-he"), channel: 11, security: .open),
        .init(bssid: "02:00:00:00:0C:00", ssid: text("lab-owe-tm"), channel: 1, security: .open),
        .init(bssid: "02:00:00:00:0C:01", ssid: [], channel: 1, security: .owe),
    ]
}

/// Just enough of pcap (link type 127, radiotap) and the 802.11 beacon layout to
/// reach a captured beacon's fixed fields and elements. Test support only.
struct CapturedBeacon {
    let bssid: BSSID
    let capability: UInt16
    let elements: ArraySlice<UInt8>

    enum ReadError: Error { case notPcap, truncated, notBeacon }

    static func all(inPcap bytes: [UInt8]) throws -> [CapturedBeacon] {
        // Little-endian classic pcap, microsecond timestamps, as tcpdump writes on x86.
        guard bytes.count >= 24, bytes.prefix(4).elementsEqual([0xD4, 0xC3, 0xB2, 0xA1]),
            le16(bytes, 20) == 127
        else { throw ReadError.notPcap }
        var offset = 24
        var beacons: [CapturedBeacon] = []
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else { throw ReadError.truncated }
            let length = Int(le32(bytes, offset + 8))
            let start = offset + 16
            guard start + length <= bytes.count else { throw ReadError.truncated }
            beacons.append(try beacon(bytes[start..<start + length]))
            offset = start + length
        }
        return beacons
    }

    /// radiotap header (length at offset 2), then the 24-byte management header,
    /// then timestamp (8), beacon interval (2), capability (2), elements, and a 4-byte FCS
    /// when the radiotap flags say so (hwsim0 does not add one).
    static func beacon(_ frame: ArraySlice<UInt8>) throws -> CapturedBeacon {
        let f = Array(frame)
        guard f.count >= 4 else { throw ReadError.truncated }
        let radiotapLength = Int(le16(f, 2))
        let header = radiotapLength
        guard f.count >= header + 36 else { throw ReadError.truncated }
        guard f[header] == 0x80 else { throw ReadError.notBeacon }  // type 0 subtype 8
        guard let bssid = BSSID(octets: f[header + 16..<header + 22]) else { throw ReadError.truncated }
        return CapturedBeacon(
            bssid: bssid, capability: le16(f, header + 34), elements: f[(header + 36)...])
    }

    private static func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(le16(b, i)) | UInt32(le16(b, i + 2)) << 16
    }
}
