import AccessoryCore
import Logging
import Testing
@testable import AccessoryDaemon

@Suite struct DaemonConfigurationTests {
    func apply(_ text: String) throws(KeyFileError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        try configuration.apply(KeyFile(parsing: Array(text.utf8), source: "test.conf"))
        return configuration
    }

    @Test func defaultsNeedNoFile() throws {
        let configuration = try apply("")
        #expect(configuration == DaemonConfiguration())
        #expect(configuration.logLevel == .info)
        #expect(configuration.bluetoothEnabled && configuration.wifiEnabled)
    }

    @Test func appliesEveryKey() throws {
        let configuration = try apply("[Daemon]\nLogLevel=Debug\n[Bluetooth]\nEnabled=no\n[Wi-Fi]\nEnabled=off\n")
        #expect(configuration.logLevel == .debug)
        #expect(!configuration.bluetoothEnabled)
        #expect(!configuration.wifiEnabled)
    }

    /// Issue 12: the per-app limits are configurable, with documented defaults.
    @Test func limitsHaveDefaultsAndEachKeySetsItsOwn() throws {
        let defaults = AppLimits()
        #expect([defaults.sessionsPerApp, defaults.displayItems, defaults.migrationItems, defaults.dictionaryEntries,
                  defaults.stringLength, defaults.argumentBytes, defaults.requestsPerMinute, defaults.requestBurst]
                == [16, 64, 256, 32, 1024, 262_144, 60, 20])
        let configuration = try apply("""
            [Limits]
            SessionsPerApp=2
            DisplayItems=3
            MigrationItems=4
            DictionaryEntries=5
            StringLength=6
            ArgumentBytes=7
            RequestsPerMinute=8
            RequestBurst=9
            """)
        #expect(AppLimits.Limit.allCases.map { configuration.limits[$0] } == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(throws: KeyFileError.self) { try apply("[Limits]\nStringLength=0\n") }
        #expect(throws: KeyFileError.self) { try apply("[Limits]\nStringLength=lots\n") }
    }

    /// Issue 26: the administrator's pairing policy, `any` unless set.
    @Test func pairingPolicyDefaultsToAnyAndEachValueSetsIt() throws {
        #expect(try apply("").pairingPolicy == .any)
        #expect(try apply("[Bluetooth]\nPairing=just-works-only\n").pairingPolicy == .justWorksOnly)
        #expect(try apply("[Bluetooth]\nPairing=Refuse\n").pairingPolicy == .refuse)
        #expect(try apply("[Bluetooth]\nPairing=refuse\nPairing=any\n").pairingPolicy == .any)
    }

    @Test(arguments: [
        ("[Bluetooth]\nEnabled=yes\n\nPairing=justworks\n", 4,
         KeyFileError.Reason.invalidValue(section: "Bluetooth", key: "Pairing", value: "justworks",
                                          expected: "any, just-works-only or refuse")),
        ("[Bluetooth]\nPairing=\n", 2,
         .invalidValue(section: "Bluetooth", key: "Pairing", value: "", expected: "any, just-works-only or refuse")),
        ("[Daemon]\nPairing=any\n", 2, .unknownKey(section: "Daemon", key: "Pairing")),
    ])
    func aBadPairingPolicyNamesFileLineAndKey(text: String, line: Int, reason: KeyFileError.Reason) {
        #expect(throws: KeyFileError(source: "test.conf", line: line, reason: reason)) { try apply(text) }
        do { _ = try apply(text) } catch {
            #expect("\(error)".hasPrefix("test.conf:\(line): "))
            #expect("\(error)".contains("'Pairing'"))
        }
    }

    @Test(arguments: [
        ("[Daemon]\nLogLevel=info\nColour=blue\n", 3, KeyFileError.Reason.unknownKey(section: "Daemon", key: "Colour")),
        ("[Radio]\nEnabled=yes\n", 2, .unknownSection("Radio")),
        ("[Bluetooth]\nEnabled=perhaps\n", 2,
         .invalidValue(section: "Bluetooth", key: "Enabled", value: "perhaps",
                       expected: "a boolean (yes/no, true/false, on/off, 1/0)")),
        ("[Daemon]\nLogLevel=loud\n", 2,
         .invalidValue(section: "Daemon", key: "LogLevel", value: "loud",
                       expected: "one of trace, debug, info, notice, warning, error, critical")),
    ])
    func rejectsBadFilesNamingLineAndKey(text: String, line: Int, reason: KeyFileError.Reason) {
        #expect(throws: KeyFileError(source: "test.conf", line: line, reason: reason)) { try apply(text) }
    }
}
