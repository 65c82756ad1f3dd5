import AccessoryCodecs
import AccessoryCore
import Foundation
import Testing

/// `iw` decoded the same kernel table in the lab (iw-scan-wlan13.txt); our decoding
/// of the raw dump must agree with it field by field.
@Suite("nl80211 decoding agrees with iw")
struct IwScanCrossCheckTests {
    struct IwBSS {
        var frequency: UInt32?
        var capability: UInt16?
        var signal: String?
        var ssid: String?
        var rsnAKMs: [String] = []
        var wpaAKMs: [String] = []
    }

    /// Reads the fields the test compares from iw's text, keyed by BSSID.
    static func iwTable(_ file: String) throws -> [String: IwBSS] {
        let text = String(decoding: try WiFiLabFixtures.bytes(file), as: UTF8.self)
        var table: [String: IwBSS] = [:]
        var current: String?
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("BSS ") {
                let bssid = String(line.dropFirst(4).prefix(17)).uppercased()
                table[bssid] = IwBSS()
                current = bssid
                section = ""
                continue
            }
            guard let bssid = current else { continue }
            if line.hasPrefix("\tRSN:") { section = "RSN" }
            if line.hasPrefix("\tWPA:") { section = "WPA" }
            if line.hasPrefix("\tfreq: ") {
                table[bssid]?.frequency = UInt32(line.dropFirst(7))
            } else if line.hasPrefix("\tcapability: "), let open = line.lastIndex(of: "(") {
                table[bssid]?.capability = UInt16(line[open...].dropFirst(3).dropLast(), radix: 16)
            } else if line.hasPrefix("\tsignal: ") {
                table[bssid]?.signal = String(line.dropFirst(9))
            } else if line.hasPrefix("\tSSID: ") || line == "\tSSID:" {
                table[bssid]?.ssid = String(line.dropFirst(7))
            } else if let range = line.range(of: "* Authentication suites: ") {
                let names = line[range.upperBound...].split(separator: " ").map(String.init)
                if section == "RSN" { table[bssid]?.rsnAKMs = names }
                if section == "WPA" { table[bssid]?.wpaAKMs = names }
            }
        }
        return table
    }

    /// iw's names for the AKMs the lab used. "IEEE" and "802.1X" are two words in iw's text.
    static func iwNames(_ akms: [SuiteSelector]) -> [String] {
        akms.flatMap { akm -> [String] in
            switch akm.type {
            case 1: ["IEEE", "802.1X"]
            case 2: ["PSK"]
            case 8: ["SAE"]
            case 18: ["OWE"]
            default: ["?\(akm)"]
            }
        }
    }

    /// iw's "%d.%.2d dBm".
    static func iwSignal(_ mBm: Int32) -> String {
        let hundredths = abs(mBm % 100)
        return "\(mBm / 100).\(hundredths < 10 ? "0" : "")\(hundredths) dBm"
    }

    /// Each raw dump with the iw output of the scan that filled the same table.
    @Test(arguments: [
        ("nl80211-get-scan-dump.bin", "iw-scan-wlan13.txt"),
        ("nl80211-get-scan-dump-5-6ghz.bin", "iw-scan-wlan2-5-6ghz.txt"),
    ])
    func everyBSSAgreesWithIw(dump: String, iwText: String) throws {
        let iw = try Self.iwTable(iwText)
        let results = try NL80211ScanResultDecoder.decodeDump(WiFiLabFixtures.bytes(dump))
        #expect(iw.count == results.count)
        for result in results {
            let theirs = try #require(iw[result.bssid.description])
            #expect(theirs.frequency == result.frequencyMHz)
            #expect(theirs.capability == result.capability)
            #expect(theirs.signal == result.signalMBm.map(Self.iwSignal))
            #expect(theirs.ssid == result.network.ssid.displayName)
            #expect(theirs.rsnAKMs == Self.iwNames(result.parsedIEs.rsn?.akmSuites ?? []))
            #expect(theirs.wpaAKMs == Self.iwNames(result.parsedIEs.wpa?.akmSuites ?? []))
        }
    }
}
