import AccessoryCore
import Logging

/// What the administrator can set in /etc/accessoryd/accessoryd.conf and its
/// drop-ins. Every key has a compiled-in default, so an empty or missing file
/// is a valid configuration.
public struct DaemonConfiguration: Equatable, Sendable {
    /// [Daemon] LogLevel=: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level = .info
    /// [Bluetooth] Enabled=: whether to look for Bluetooth controllers at all.
    public var bluetoothEnabled = true
    /// [Wi-Fi] Enabled=: whether to look for Wi-Fi interfaces at all.
    public var wifiEnabled = true

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
            case ("Wi-Fi", "Enabled"):
                wifiEnabled = try boolean(entry, file)
            default:
                preconditionFailure("key table and switch disagree on \(entry.section).\(entry.key)")
            }
        }
    }

    /// Every section and the keys it may hold.
    static let keys: [String: Set<String>] = [
        "Daemon": ["LogLevel"],
        "Bluetooth": ["Enabled"],
        "Wi-Fi": ["Enabled"],
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
