import AccessoryCore
import Foundation
import Testing
@testable import AccessoryDaemon

/// The files under packaging/ must agree with the code they describe.
@Suite struct PackagingTests {
    static let packaging = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("packaging")

    @Test func catalogHasExactlyOneEntryPerMessageID() throws {
        let catalog = try String(contentsOf: Self.packaging.appendingPathComponent("accessoryd.catalog"), encoding: .utf8)
        let ids = catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map { String($0.dropFirst(3)) }
        #expect(ids.sorted() == MessageID.allCases.map(\.rawValue).sorted())
        // journalctl wants 128-bit ids as 32 lowercase hex digits.
        for id in ids { #expect(id.count == 32 && bytes(fromHex: id) != nil && id == id.lowercased()) }
    }

    @Test func shippedConfigurationParsesToTheDefaults() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.packaging.appendingPathComponent("accessoryd.conf")))
        var configuration = DaemonConfiguration()
        try configuration.apply(KeyFile(parsing: bytes, source: "accessoryd.conf"))
        #expect(configuration == DaemonConfiguration())
    }

    @Test func shippedConfigurationNamesEveryKey() throws {
        let text = try String(contentsOf: Self.packaging.appendingPathComponent("accessoryd.conf"), encoding: .utf8)
        for (section, keys) in DaemonConfiguration.keys {
            #expect(text.contains("[\(section)]"))
            for key in keys { #expect(text.contains("#\(key)="), "accessoryd.conf lacks \(section).\(key)") }
        }
    }
}
