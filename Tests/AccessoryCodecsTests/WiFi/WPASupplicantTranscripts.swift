import AccessoryCore
import Foundation
import Testing

/// Conversations with wpa_supplicant 2.10 recorded in the lab (see
/// Fixtures/wifi/wpa_supplicant/README.md): one datagram per line, `> HEX` sent,
/// `< HEX` reply, `! HEX` event.
struct WPASupplicantTranscript {
    enum Direction: Character { case sent = ">", reply = "<", event = "!" }

    let records: [(Direction, [UInt8])]

    static func load(_ name: String) throws -> WPASupplicantTranscript {
        let base = try #require(Bundle.module.resourceURL)
        let url = base.appendingPathComponent("Fixtures/wifi/wpa_supplicant/\(name).transcript")
        let text = try String(contentsOf: url, encoding: .utf8)
        var records: [(Direction, [UInt8])] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            let direction = try #require(parts.first?.first.flatMap(Direction.init(rawValue:)))
            records.append((direction, try #require(bytes(fromHex: parts.count > 1 ? parts[1] : ""))))
        }
        return WPASupplicantTranscript(records: records)
    }

    /// The reply that followed the first request with exactly these bytes.
    func reply(to request: String) throws -> [UInt8] {
        let index = try #require(records.firstIndex { $0.0 == .sent && $0.1 == Array(request.utf8) },
                                 "no request \(request)")
        let reply = try #require(records[(index + 1)...].first { $0.0 == .reply })
        return reply.1
    }

    /// Every reply to requests with these bytes, in order.
    func replies(to request: String) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (index, record) in records.enumerated() where record.0 == .sent && record.1 == Array(request.utf8) {
            if let reply = records[(index + 1)...].first(where: { $0.0 == .reply }) { out.append(reply.1) }
        }
        return out
    }

    var sent: [[UInt8]] { records.filter { $0.0 == .sent }.map(\.1) }
    var events: [[UInt8]] { records.filter { $0.0 == .event }.map(\.1) }
}
