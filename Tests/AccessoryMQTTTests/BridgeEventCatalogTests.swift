import Foundation
import Testing
import AccessoryMQTT

/// Every MESSAGE_ID accessory-mqtt writes has its catalog entry (what
/// `journalctl -x` shows), and no two events share one.
@Suite struct BridgeEventCatalogTests {
    static var catalog: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("packaging/accessory-mqtt/accessory-mqtt.catalog"), encoding: .utf8)
        }
    }

    @Test func everyEventHasACatalogEntryWithASubject() throws {
        let entries = try Self.catalog.components(separatedBy: "\n-- ").dropFirst()
        var ids: [String: String] = [:]
        for entry in entries {
            let lines = entry.split(separator: "\n", omittingEmptySubsequences: false)
            ids[String(lines[0])] = lines.first { $0.hasPrefix("Subject: ") }.map(String.init) ?? ""
        }
        for event in BridgeEvent.allCases {
            #expect(event.rawValue.count == 32 && event.rawValue.allSatisfy(\.isHexDigit), "\(event.name)")
            #expect(ids[event.rawValue] != nil, "\(event.name) has no catalog entry")
            #expect(ids[event.rawValue]?.isEmpty == false, "\(event.name) has no Subject")
        }
        #expect(Set(BridgeEvent.allCases.map(\.rawValue)).count == BridgeEvent.allCases.count)
        #expect(ids.count == BridgeEvent.allCases.count, "the catalog has entries no event writes")
    }
}
