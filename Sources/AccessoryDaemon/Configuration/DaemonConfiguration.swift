import AccessoryCore
import AccessoryDecisions
import Logging

/// What the administrator can set in /etc/accessoryd/accessoryd.conf and its
/// drop-ins. Every key has a compiled-in default, so an empty or missing file
/// is a valid configuration.
public struct DaemonConfiguration: Equatable, Sendable {
    /// [Daemon] LogLevel=: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level = .info
    /// [Bluetooth] Enabled=: whether to look for Bluetooth controllers at all.
    public var bluetoothEnabled = true
    /// [Bluetooth] Controllers=, ExclusiveControllers=, ScanWatchdog=, ScanMode=.
    public var bluetooth = BluetoothSettings()
    /// [Bluetooth] Pairing=: any, just-works-only or refuse; what a setup's
    /// `PairingProcedure` may do (read when a pairing starts, so a reload applies).
    public var pairingPolicy = PairingPolicy.any
    /// [Wi-Fi] Enabled=: whether to look for Wi-Fi interfaces at all.
    public var wifiEnabled = true
    /// [Wi-Fi] ScanInterval=, ScanIntervalMax=, ScanType=, Frequencies=, Interfaces=.
    public var wifi = WiFiDiscoveryConfiguration()
    /// [Wi-Fi] JoinInterface=: the interface joins of accessories' hotspots
    /// use (a dedicated one keeps the uplink untouched); default: the first.
    public var wifiJoinInterface: String?
    /// [Wi-Fi] WPASupplicantDirectory=: wpa_supplicant's control directory
    /// (its ctrl_interface=), where joins find the interface's socket.
    public var wpaSupplicantDirectory = "/run/wpa_supplicant"
    /// [Limits] SessionsPerApp=, DisplayItems=, MigrationItems=,
    /// DictionaryEntries=, StringLength=, ArgumentBytes=: what one app may
    /// make accessoryd read or hold.
    public var limits = AppLimits()

    public init() {}

    /// Applies one file's assignments over `self`. Unknown sections and keys
    /// are errors, not warnings: a misspelt key would otherwise do nothing
    /// and nobody would know.
    public mutating func apply(_ file: KeyFile) throws(KeyFileError) {
        for section in file.sections where !Self.keys.keys.contains(section) {
            let line = file.entries.first { $0.section == section }?.line
            throw KeyFileError(source: file.source, line: line, reason: .unknownSection(section))
        }
        for entry in file.entries {
            guard Self.keys[entry.section]?.contains(entry.key) == true else {
                throw KeyFileError(
                    source: file.source, line: entry.line, reason: .unknownKey(section: entry.section, key: entry.key))
            }
            switch (entry.section, entry.key) {
            case ("Daemon", "LogLevel"):
                guard let level = Logger.Level(rawValue: entry.value.lowercased()) else {
                    throw invalid(entry, file, expected: "one of trace, debug, info, notice, warning, error, critical")
                }
                logLevel = level
            case ("Bluetooth", "Enabled"):
                bluetoothEnabled = try boolean(entry, file)
            case ("Bluetooth", "Controllers"):
                guard let list = BluetoothSettings.controllerList(entry.value) else {
                    throw invalid(entry, file, expected: "controller names such as hci0 hci1, or empty for all")
                }
                bluetooth.controllers = list.isEmpty ? nil : list
            case ("Bluetooth", "ExclusiveControllers"):
                guard let list = BluetoothSettings.controllerList(entry.value) else {
                    throw invalid(entry, file, expected: "controller names such as hci1, or empty for none")
                }
                bluetooth.exclusiveControllers = list
            case ("Bluetooth", "ScanWatchdog"):
                guard let watchdog = BluetoothSettings.watchdogDuration(entry.value) else {
                    throw invalid(entry, file, expected: "a duration such as 90s or 2min, or 0 to turn it off")
                }
                bluetooth.scanWatchdog = watchdog
            case ("Bluetooth", "ScanMode"):
                guard let mode = BluetoothScanMode(rawValue: entry.value.lowercased()) else {
                    throw invalid(entry, file, expected: "auto, passive or active")
                }
                bluetooth.scanMode = mode
            case ("Bluetooth", "PowerControllers"):
                guard let setting = ControllerPowerPolicy.Setting(rawValue: entry.value.lowercased()) else {
                    throw invalid(entry, file, expected: "auto or never")
                }
                bluetooth.powerControllers = setting
            case ("Bluetooth", "Pairing"):
                guard let policy = PairingPolicy(configurationValue: entry.value) else {
                    throw invalid(entry, file, expected: "any, just-works-only or refuse")
                }
                pairingPolicy = policy
            case ("Wi-Fi", "Enabled"):
                wifiEnabled = try boolean(entry, file)
            case ("Wi-Fi", "ScanInterval"):
                guard let interval = WiFiDiscoveryConfiguration.parseDuration(entry.value),
                    interval >= WiFiDiscoveryConfiguration.minimumScanInterval
                else { throw invalid(entry, file, expected: "a duration of at least 1s (10, 10s, 1500ms, 2min)") }
                wifi.scanInterval = interval
            case ("Wi-Fi", "ScanIntervalMax"):
                guard let interval = WiFiDiscoveryConfiguration.parseDuration(entry.value),
                    interval >= WiFiDiscoveryConfiguration.minimumScanInterval
                else { throw invalid(entry, file, expected: "a duration of at least 1s (300, 5min)") }
                wifi.scanIntervalMax = interval
            case ("Wi-Fi", "ScanType"):
                guard let type = WiFiDiscoveryConfiguration.ScanType(rawValue: entry.value.lowercased()) else {
                    throw invalid(entry, file, expected: "passive or active")
                }
                wifi.scanType = type
            case ("Wi-Fi", "Frequencies"):
                guard let frequencies = WiFiDiscoveryConfiguration.parseFrequencies(entry.value) else {
                    throw invalid(entry, file, expected: "frequencies in MHz separated by spaces (2412 2437 5180)")
                }
                wifi.frequenciesMHz = frequencies
            case ("Wi-Fi", "Interfaces"):
                guard let names = WiFiDiscoveryConfiguration.parseInterfaces(entry.value) else {
                    throw invalid(entry, file, expected: "interface names separated by spaces")
                }
                wifi.interfaces = names
            case ("Wi-Fi", "JoinInterface"):
                guard let names = WiFiDiscoveryConfiguration.parseInterfaces(entry.value), names.count == 1 else {
                    throw invalid(entry, file, expected: "one interface name")
                }
                wifiJoinInterface = names[0]
            case ("Wi-Fi", "WPASupplicantDirectory"):
                guard entry.value.hasPrefix("/"), !entry.value.contains("\0") else {
                    throw invalid(entry, file, expected: "an absolute directory path")
                }
                wpaSupplicantDirectory = entry.value
            case ("Limits", let key):
                guard let limit = AppLimits.Limit(rawValue: key), let value = AppLimits.parse(entry.value) else {
                    throw invalid(entry, file, expected: "a whole number of at least 1")
                }
                limits[limit] = value
            default:
                preconditionFailure("key table and switch disagree on \(entry.section).\(entry.key)")
            }
        }
    }

    /// Every section and the keys it may hold.
    static let keys: [String: Set<String>] = [
        "Daemon": ["LogLevel"],
        "Bluetooth": ["Enabled", "Controllers", "ExclusiveControllers", "ScanWatchdog", "ScanMode", "PowerControllers", "Pairing"],
        "Wi-Fi": ["Enabled", "ScanInterval", "ScanIntervalMax", "ScanType", "Frequencies", "Interfaces", "JoinInterface", "WPASupplicantDirectory"],
        "Limits": Set(AppLimits.Limit.allCases.map(\.rawValue)),
    ]

    private func boolean(_ entry: KeyFile.Entry, _ file: KeyFile) throws(KeyFileError) -> Bool {
        switch entry.value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw invalid(entry, file, expected: "a boolean (yes/no, true/false, on/off, 1/0)")
        }
    }

    private func invalid(_ entry: KeyFile.Entry, _ file: KeyFile, expected: String) -> KeyFileError {
        KeyFileError(
            source: file.source, line: entry.line,
            reason: .invalidValue(section: entry.section, key: entry.key, value: entry.value, expected: expected))
    }
}
