/// Reads one app manifest. The syntax is `KeyFile`'s (systemd unit files):
///
///     [App]
///     Name=acme-sensor-logger
///     DisplayName=Acme Sensor Logger
///     User=acmelog
///     Unit=acme-logger.service
///     WakeSocket=acme-logger-wake.socket
///     ProductImage=/usr/share/accessoryd/images/acme-sensor-logger/sensor.png
///     Supports=Bluetooth Wi-Fi
///
///     [Bluetooth]
///     ServiceUUIDs=180F 6E400001-B5A3-F393-E0A9-E50E24DCCA9E
///     CompanyIdentifiers=0x004C 76
///     Names=Acme Sensor
///     Names=ACME-*
///     Pairing=yes
///
///     [Wi-Fi]
///     SSIDs=Acme Setup
///     SSIDPrefixes=ACME-\xff
///
/// - `[App]`: `Name=` (required) is the app's id and must equal the file's
///   name without `.conf`; `User=` and/or `Unit=` (at least one; the unit is a
///   `.service` or `.scope`) say how a caller is recognised; `WakeSocket=`
///   (optional) names the app's own `.socket` unit, not a template, that
///   starts it when an observed accessory appears; `ProductImage=`
///   (optional, repeatable, one path a line, at most 16) names a PNG in
///   `ProductImage.directories` that pickers show (the file itself is checked
///   by the loader); `Supports=` lists
///   `Bluetooth` and/or `Wi-Fi` (`WiFi` is accepted too). Each key at most once.
/// - `[Bluetooth]`: `ServiceUUIDs=` and `CompanyIdentifiers=` (hex with `0x`,
///   or decimal) take space-separated lists; `Names=` takes one name per
///   line, because names hold spaces. All three may be repeated and add up.
///   `Pairing=` (a boolean, at most once, default no) lets descriptors ask
///   for pairing during setup (`SupportedOptions=bluetoothPairingLE`).
/// - `[Wi-Fi]`: `SSIDs=` and `SSIDPrefixes=`, one per line, repeatable; UTF-8
///   text with `\xNN` for any octet and `\\` for a backslash; at most 32 octets.
/// A `[Bluetooth]` or `[Wi-Fi]` section needs the matching `Supports=` entry.
/// Unknown sections and keys are errors, so a typo never silently widens or
/// narrows what an app may do.
enum AppManifestParser {
    static let maximumProductImages = 16

    static func parse(_ bytes: [UInt8], source: String, fileStem: String) throws(KeyFileError) -> AppManifest {
        let file = try KeyFile(parsing: bytes, source: source)
        func fail(_ line: Int?, _ reason: KeyFileError.Reason) -> KeyFileError {
            KeyFileError(source: source, line: line, reason: reason)
        }
        for header in file.sectionHeaders where !["App", "Bluetooth", "Wi-Fi"].contains(header.name) {
            throw fail(header.line, .unknownSection(header.name))
        }

        var manifest = AppManifest(app: AppID(fileStem), source: source)
        var name: String?
        var supportsEntry: KeyFile.Entry?
        var seen = Set<String>()
        for entry in file.entries {
            func invalid(_ expected: String) -> KeyFileError {
                fail(entry.line, .invalidValue(section: entry.section, key: entry.key, value: entry.value, expected: expected))
            }
            switch (entry.section, entry.key) {
            case ("App", "Name"), ("App", "DisplayName"), ("App", "User"), ("App", "Unit"), ("App", "Supports"), ("App", "WakeSocket"),
                ("Bluetooth", "Pairing"):
                guard seen.insert(entry.key).inserted else {
                    throw fail(entry.line, .duplicateKey(section: entry.section, key: entry.key))
                }
            default: break
            }
            switch (entry.section, entry.key) {
            case ("App", "Name"):
                guard AppID.isValid(entry.value) else { throw invalid("1 to 64 of a-z 0-9 . _ - starting with a letter or digit") }
                guard entry.value == fileStem else { throw invalid("the file's own name, '\(fileStem)'") }
                name = entry.value
            case ("App", "DisplayName"):
                guard !entry.value.isEmpty else { throw invalid("a name to show") }
                manifest.displayName = entry.value
            case ("App", "User"):
                guard isUserName(entry.value) else { throw invalid("a unix user name") }
                manifest.user = entry.value
            case ("App", "Unit"):
                guard isUnitName(entry.value) else { throw invalid("a systemd unit name ending in .service or .scope") }
                manifest.unit = entry.value
            case ("App", "WakeSocket"):
                guard let socket = WakeSocketName(entry.value) else {
                    throw invalid("a systemd unit name ending in .socket, not a template (no @)")
                }
                manifest.wakeSocket = socket.unit
            case ("App", "ProductImage"):
                guard ProductImage.isAllowedPath(entry.value) else {
                    throw invalid("a .png file in \(ProductImage.directories.joined(separator: " or ")), a plain path")
                }
                guard manifest.productImages.count < Self.maximumProductImages else {
                    throw invalid("at most \(Self.maximumProductImages) product images")
                }
                if !manifest.productImages.contains(entry.value) { manifest.productImages.append(entry.value) }
            case ("App", "Supports"):
                for word in words(entry.value) {
                    switch word {
                    case "Bluetooth": manifest.supports.insert(.bluetooth)
                    case "Wi-Fi", "WiFi": manifest.supports.insert(.wifi)
                    default: throw invalid("Bluetooth and/or Wi-Fi")
                    }
                }
                guard !manifest.supports.isEmpty else { throw invalid("Bluetooth and/or Wi-Fi") }
                supportsEntry = entry
            case ("Bluetooth", "ServiceUUIDs"):
                let items = words(entry.value)
                guard !items.isEmpty else { throw invalid("service UUIDs") }
                for word in items {
                    guard let uuid = BluetoothUUID(word) else { throw invalid("16-, 32- or 128-bit UUIDs") }
                    manifest.bluetoothServiceUUIDs.insert(uuid)
                }
            case ("Bluetooth", "CompanyIdentifiers"):
                let items = words(entry.value)
                guard !items.isEmpty else { throw invalid("company identifiers") }
                for word in items {
                    guard let id = companyIdentifier(word) else { throw invalid("company identifiers 0x0000-0xFFFF") }
                    manifest.bluetoothCompanyIdentifiers.insert(id)
                }
            case ("Bluetooth", "Names"):
                guard !entry.value.isEmpty else { throw invalid("a name") }
                manifest.bluetoothNames.insert(entry.value)
            case ("Bluetooth", "Pairing"):
                switch entry.value.lowercased() {
                case "yes", "true", "on", "1": manifest.bluetoothPairing = true
                case "no", "false", "off", "0": manifest.bluetoothPairing = false
                default: throw invalid("a boolean (yes/no, true/false, on/off, 1/0)")
                }
            case ("Wi-Fi", "SSIDs"):
                guard let octets = SSIDText.octets(entry.value), !octets.isEmpty, let ssid = SSID(bytes: octets) else {
                    throw invalid("an SSID of 1 to 32 octets (\\xNN for any octet)")
                }
                manifest.ssids.insert(ssid)
            case ("Wi-Fi", "SSIDPrefixes"):
                guard let octets = SSIDText.octets(entry.value), (1...SSID.maximumLength).contains(octets.count) else {
                    throw invalid("an SSID prefix of 1 to 32 octets (\\xNN for any octet)")
                }
                manifest.ssidPrefixes.insert(octets)
            default:
                throw fail(entry.line, .unknownKey(section: entry.section, key: entry.key))
            }
        }

        guard name != nil else { throw fail(nil, .missingKey(section: "App", key: "Name")) }
        guard let supportsEntry else { throw fail(nil, .missingKey(section: "App", key: "Supports")) }
        guard manifest.user != nil || manifest.unit != nil else {
            throw fail(nil, .missingKey(section: "App", key: "User or Unit"))
        }
        for (section, radio, word) in [("Bluetooth", AccessorySupport.bluetooth, "Bluetooth"), ("Wi-Fi", .wifi, "Wi-Fi")]
        where !manifest.supports.contains(radio) {
            if file.sections.contains(section) {
                throw fail(
                    supportsEntry.line,
                    .invalidValue(
                        section: "App", key: "Supports", value: supportsEntry.value,
                        expected: "\(word) as well, since the file has a [\(section)] section"))
            }
        }
        return manifest
    }

    private static func words(_ value: String) -> [Substring] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    private static func companyIdentifier(_ word: Substring) -> UInt16? {
        if word.hasPrefix("0x") || word.hasPrefix("0X") { return UInt16(word.dropFirst(2), radix: 16) }
        return UInt16(word, radix: 10)
    }

    /// The names `useradd` accepts by default: `[a-z_][a-z0-9_-]*`, up to 32.
    private static func isUserName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        return bytes.enumerated().allSatisfy { offset, b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || b == UInt8(ascii: "_")
                || (offset > 0 && ((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-")))
        }
    }

    /// Processes live only in service and scope units, so only those can name an app.
    private static func isUnitName(_ text: String) -> Bool {
        let suffix = text.hasSuffix(".service") ? ".service" : text.hasSuffix(".scope") ? ".scope" : nil
        guard let suffix, text.utf8.count > suffix.utf8.count, text.utf8.count <= 255 else { return false }
        return text.utf8.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "@")].contains(b)
        }
    }
}
