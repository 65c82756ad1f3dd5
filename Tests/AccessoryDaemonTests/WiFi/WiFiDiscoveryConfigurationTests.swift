import AccessoryCore
import AccessoryDecisions
import Testing
@testable import AccessoryDaemon

@Suite struct WiFiDiscoveryConfigurationTests {
    func apply(_ text: String) throws(KeyFileError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        try configuration.apply(KeyFile(parsing: Array(text.utf8), source: "test.conf"))
        return configuration
    }

    @Test func defaults() throws {
        let wifi = try apply("").wifi
        #expect(wifi.scanInterval == .seconds(10))
        #expect(wifi.scanIntervalMax == .seconds(300))
        #expect(wifi.scanType == .active)
        #expect(wifi.frequenciesMHz.isEmpty)
        #expect(wifi.interfaces.isEmpty)
    }

    @Test func appliesEveryWiFiKey() throws {
        let wifi = try apply("""
            [Wi-Fi]
            ScanInterval=2.5s
            ScanIntervalMax=2min
            ScanType=Passive
            Frequencies=2412 2437  5180 2412
            Interfaces=wlan0 wlp2s0
            """).wifi
        #expect(wifi.scanInterval == .milliseconds(2500))
        #expect(wifi.scanIntervalMax == .seconds(120))
        #expect(wifi.scanType == .passive)
        #expect(wifi.frequenciesMHz == [2412, 2437, 5180])
        #expect(wifi.interfaces == ["wlan0", "wlp2s0"])
        #expect(wifi.schedule.interval == .milliseconds(2500))
        #expect(wifi.schedule.maximumInterval == .seconds(120))
    }

    @Test(arguments: [("10", 10_000), ("10s", 10_000), ("1500ms", 1500), ("2min", 120_000), ("1.5", 1500)])
    func durations(text: String, milliseconds: Int64) {
        #expect(WiFiDiscoveryConfiguration.parseDuration(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "s", "ten", "-1", "2d", "nan", "inf", "1e30"])
    func badDurations(text: String) {
        #expect(WiFiDiscoveryConfiguration.parseDuration(text) == nil)
    }

    @Test func backoffCeilingBelowTheIntervalIsTheInterval() throws {
        let wifi = try apply("[Wi-Fi]\nScanInterval=30\nScanIntervalMax=5\n").wifi
        #expect(wifi.schedule.maximumInterval == .seconds(30))
    }

    @Test(arguments: [
        ("[Wi-Fi]\nScanInterval=500ms\n", "ScanInterval", "500ms"),
        ("[Wi-Fi]\nScanIntervalMax=0\n", "ScanIntervalMax", "0"),
        ("[Wi-Fi]\nScanType=loud\n", "ScanType", "loud"),
        ("[Wi-Fi]\nFrequencies=2412 channel6\n", "Frequencies", "2412 channel6"),
        ("[Wi-Fi]\nFrequencies=100\n", "Frequencies", "100"),
        ("[Wi-Fi]\nInterfaces=a-name-longer-than-ifnamsiz\n", "Interfaces", "a-name-longer-than-ifnamsiz"),
    ])
    func rejectsBadValuesNamingTheKey(text: String, key: String, value: String) {
        do {
            _ = try apply(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == 2)
            guard case .invalidValue(let section, let badKey, let badValue, _) = error.reason else {
                Issue.record("unexpected reason \(error.reason)")
                return
            }
            #expect(section == "Wi-Fi")
            #expect(badKey == key)
            #expect(badValue == value)
        }
    }
}
