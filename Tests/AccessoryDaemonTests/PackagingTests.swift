import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import AccessoryWire
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

    /// The lab and the system tier look for accessoryd's entries by id, in
    /// Python files of their own: each id they name must be one the daemon
    /// logs, or a check would wait for an entry that can never come.
    @Test func theLabAndTheSystemTierNameOnlyMessageIDsTheDaemonHas() throws {
        let tests = Self.packaging.deletingLastPathComponent().appendingPathComponent("Tests")
        let known = Set(MessageID.allCases.map(\.rawValue))
        let assignment = /^([A-Z][A-Z0-9_]*) = "([0-9a-f]{32})"$/
        for file in ["Lab/labkit/message_ids.py", "System/guest/checks.py"] {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            let named = text.split(separator: "\n").compactMap { try? assignment.wholeMatch(in: String($0)) }
            #expect(!named.isEmpty, "\(file) names no MESSAGE_ID")
            for match in named {
                let logged = known.contains(String(match.output.2))
                #expect(logged, "\(file): \(match.output.1) = \(match.output.2) is not in MessageID.swift")
            }
        }
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

    static func text(_ path: String) throws -> String {
        try String(contentsOf: packaging.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func thePackageVersionIsTheProgramsVersion() throws {
        let firstLine = try Self.text("debian/changelog").prefix { $0 != "\n" }
        #expect(firstLine.hasPrefix("accessoryd (\(Version.current)) "))
    }

    /// One user in four places: sysusers creates it, the unit runs as it, the
    /// bus lets it own the name, and its state directory is the unit's.
    @Test func theServiceUserIsDeclaredWhereverItIsNamed() throws {
        let sysusers = try Self.text("debian/accessoryd.sysusers").split(separator: "\n")
        #expect(sysusers.contains { $0.hasPrefix("u accessoryd - ") && $0.hasSuffix(" /var/lib/accessoryd") })
        let unit = try Self.text("accessoryd.service").split(separator: "\n")
        #expect(unit.contains("User=accessoryd"))
        #expect(unit.contains("StateDirectory=accessoryd"))
        // Every supplementary group of the unit is one the package makes sure exists.
        for line in unit where line.hasPrefix("SupplementaryGroups=") {
            for group in line.dropFirst("SupplementaryGroups=".count).split(separator: " ") {
                #expect(sysusers.contains("g \(group) -"), "sysusers does not create \(group)")
            }
        }
        let policy = try Self.text("dbus/org.accessoryagent.conf")
        #expect(policy.contains("<policy user=\"accessoryd\">\n    <allow own=\"\(BusNames.service)\"/>"))
    }

    /// What the unit starts and what it runs are what the package installs.
    @Test func theUnitRunsWhatThePackageInstalls() throws {
        let install = try Self.text("debian/accessoryd.install").split(separator: "\n")
        let unit = try Self.text("accessoryd.service").split(separator: "\n")
        #expect(unit.contains("ExecStart=/usr/sbin/accessoryd"))
        #expect(install.contains("debian/build/accessoryd usr/sbin"))
        #expect(try Self.text("debian/accessoryd.links") == "usr/sbin/accessoryd usr/bin/accessoryctl\n")
        #expect(install.contains("packaging/libexec/udhcpc-script usr/libexec/accessoryd"))
        #expect(DHCPClientProcess.defaultScript == "/usr/libexec/accessoryd/udhcpc-script")
    }

    /// udev pulls the service in for both kinds of radio, and the unit's
    /// conditions are the same two kinds.
    @Test func udevAndTheUnitAgreeOnWhatARadioIs() throws {
        let rules = try String(
            contentsOf: Self.packaging.deletingLastPathComponent().appendingPathComponent("udev/70-accessoryd.rules"), encoding: .utf8
        ).split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("SYSTEMD_WANTS") }
        #expect(rules.count == 2)
        #expect(rules.contains { $0.hasPrefix("SUBSYSTEM==\"bluetooth\", ENV{DEVTYPE}==\"host\"") })
        #expect(rules.contains { $0.hasPrefix("SUBSYSTEM==\"net\", ENV{DEVTYPE}==\"wlan\"") })
        for rule in rules { #expect(rule.hasSuffix("ENV{SYSTEMD_WANTS}+=\"accessoryd.service\"")) }
        let unit = try Self.text("accessoryd.service").split(separator: "\n")
        #expect(unit.contains("ConditionPathExistsGlob=|/sys/class/bluetooth/hci*"))
        #expect(unit.contains("ConditionPathExistsGlob=|/sys/class/ieee80211/*"))
    }
}
