import AccessoryCore

/// The [Wi-Fi] keys that shape discovery (accessoryd.conf(5)).
public struct WiFiDiscoveryConfiguration: Equatable, Sendable {
    public enum ScanType: String, Equatable, Sendable {
        /// Beacons only: the agent sends nothing on the air.
        case passive
        /// Probe requests too: faster, and the only way to find hidden networks.
        case active
    }

    /// ScanInterval=: from the end of one scan to the start of the next.
    public var scanInterval: Duration = .seconds(10)
    /// ScanIntervalMax=: the ceiling of the backoff while scans keep failing.
    public var scanIntervalMax: Duration = .seconds(300)
    /// ScanType=.
    public var scanType: ScanType = .active
    /// Frequencies=: MHz to scan; empty means every frequency the radio has.
    public var frequenciesMHz: [UInt32] = []
    /// Interfaces=: names to scan on; empty means every station interface.
    public var interfaces: [String] = []

    public init() {}

    /// The shortest ScanInterval= accepted: a scan of 2.4 and 5 GHz takes
    /// a few seconds, and the radio's own connection needs the gaps.
    public static let minimumScanInterval: Duration = .seconds(1)

    public var schedule: WiFiScanSchedule.Configuration {
        WiFiScanSchedule.Configuration(interval: scanInterval, maximumInterval: max(scanInterval, scanIntervalMax))
    }

    /// `10`, `10s`, `1.5s`, `500ms` or `2min` (seconds when no unit is given).
    public static func parseDuration(_ text: String) -> Duration? { TimeSpan.parse(text) }

    /// Space-separated MHz values between 2400 and 71000 (2.4 GHz to 60 GHz).
    public static func parseFrequencies(_ text: String) -> [UInt32]? {
        var result: [UInt32] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard let value = UInt32(word), (2400...71000).contains(value) else { return nil }
            if !result.contains(value) { result.append(value) }
        }
        return result
    }

    /// Space-separated interface names (at most 15 bytes each, as IFNAMSIZ allows).
    public static func parseInterfaces(_ text: String) -> [String]? {
        var result: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard word.utf8.count <= 15, !word.contains("/") else { return nil }
            if !result.contains(String(word)) { result.append(String(word)) }
        }
        return result
    }
}
