/// Discovery descriptors written as a `KeyFile`, one `[Descriptor NAME]`
/// section each, for `accessoryd --monitor --descriptors FILE` (an
/// administrator checking what a descriptor would match before an app asks)
/// and for the lab. Keys mirror `DiscoveryDescriptor`:
///
///     [Descriptor battery-sensors]
///     App=acme-sensor-logger        # whose descriptor it is; default "monitor"
///     ServiceUUID=180F
///     CompanyIdentifier=0x004C      # hex with 0x, or decimal
///     NameSubstring=Acme
///     NameCompare=case-insensitive anchored
///     NamePattern=Acme-*
///     ManufacturerDataBlob=0215     # hex; the Mask of the same length
///     ManufacturerDataMask=ffff
///     ServiceDataBlob=01
///     ServiceDataMask=ff
///     Range=immediate               # or default
///     SSID=Acme Camera \xff         # \xNN for any octet, \\ for a backslash
///     SSIDPrefix=ACME-
///     BSSID=02:00:00:00:00:00/ff:ff:ff:00:00:00
///     MinimumRSSI=-70
///
/// Descriptor ids are the section's position in the file, from 1.
public enum DescriptorFile {
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var app: AppID
        public var id: DescriptorID
        public var descriptor: DiscoveryDescriptor
    }

    public static func parse(_ bytes: [UInt8], source: String) throws(KeyFileError) -> [Entry] {
        let file = try KeyFile(parsing: bytes, source: source)
        var entries: [Entry] = []
        for header in file.sectionHeaders {
            guard header.name.hasPrefix("Descriptor "), header.name.count > "Descriptor ".count else {
                throw KeyFileError(source: source, line: header.line, reason: .unknownSection(header.name))
            }
            let name = String(header.name.dropFirst("Descriptor ".count))
            let own = file.entries.filter { $0.section == header.name && $0.line > header.line }
                .prefix { entry in
                    // Entries up to the next header of any name.
                    !file.sectionHeaders.contains { $0.line > header.line && $0.line < entry.line }
                }
            var app = AppID("monitor")
            var descriptor = DiscoveryDescriptor()
            var seen = Set<String>()
            for entry in own {
                guard seen.insert(entry.key).inserted else {
                    throw KeyFileError(source: source, line: entry.line,
                                       reason: .duplicateKey(section: header.name, key: entry.key))
                }
                try apply(entry, to: &descriptor, app: &app, source: source)
            }
            do throws(DiscoveryDescriptorError) {
                try descriptor.validate()
            } catch {
                throw KeyFileError(
                    source: source, line: header.line,
                    reason: .invalidSection(section: header.name, reason: "\(error)"))
            }
            entries.append(Entry(name: name, app: app, id: DescriptorID(UInt64(entries.count + 1)), descriptor: descriptor))
        }
        return entries
    }

    private static func apply(
        _ entry: KeyFile.Entry, to d: inout DiscoveryDescriptor, app: inout AppID, source: String
    ) throws(KeyFileError) {
        func invalid(_ expected: String) -> KeyFileError {
            KeyFileError(source: source, line: entry.line,
                         reason: .invalidValue(section: entry.section, key: entry.key, value: entry.value, expected: expected))
        }
        func hex() throws(KeyFileError) -> [UInt8] {
            guard let data = bytes(fromHex: entry.value) else { throw invalid("hex octets, e.g. 0215") }
            return data
        }
        let value = entry.value
        switch entry.key {
        case "App":
            guard !value.isEmpty else { throw invalid("an app name") }
            app = AppID(value)
        case "ServiceUUID":
            guard let uuid = BluetoothUUID(value) else { throw invalid("a 16-, 32- or 128-bit UUID") }
            d.bluetoothServiceUUID = uuid
        case "CompanyIdentifier":
            let parsed = value.hasPrefix("0x") || value.hasPrefix("0X")
                ? UInt16(value.dropFirst(2), radix: 16) : UInt16(value, radix: 10)
            guard let parsed else { throw invalid("a company identifier, 0x004C or 76") }
            d.bluetoothCompanyIdentifier = parsed
        case "NameSubstring": d.bluetoothNameSubstring = value
        case "NamePattern": d.bluetoothNamePattern = value
        case "NameCompare":
            var options: NameCompareOptions = []
            for word in value.split(separator: " ") {
                switch word {
                case "case-insensitive": options.insert(.caseInsensitive)
                case "anchored": options.insert(.anchored)
                default: throw invalid("case-insensitive and/or anchored")
                }
            }
            d.bluetoothNameSubstringCompareOptions = options
        case "ManufacturerDataBlob": d.bluetoothManufacturerDataBlob = try hex()
        case "ManufacturerDataMask": d.bluetoothManufacturerDataMask = try hex()
        case "ServiceDataBlob": d.bluetoothServiceDataBlob = try hex()
        case "ServiceDataMask": d.bluetoothServiceDataMask = try hex()
        case "Range":
            guard let range = BluetoothRange(rawValue: value) else {
                throw invalid(BluetoothRange.allCases.map(\.rawValue).joined(separator: " or "))
            }
            d.bluetoothRange = range
        case "SSID":
            guard let octets = SSIDText.octets(value), let ssid = SSID(bytes: octets) else {
                throw invalid("up to 32 octets, \\xNN for any octet")
            }
            d.ssid = ssid
        case "SSIDPrefix":
            guard let octets = SSIDText.octets(value) else { throw invalid("octets, \\xNN for any octet") }
            d.ssidPrefix = octets
        case "BSSID":
            let parts = value.split(separator: "/", maxSplits: 1)
            guard let bssid = parts.first.flatMap({ HardwareAddress($0) }) else {
                throw invalid("AA:BB:CC:DD:EE:FF, optionally /mask")
            }
            if parts.count == 2 {
                guard let mask = HardwareAddress(parts[1]) else { throw invalid("AA:BB:CC:DD:EE:FF/FF:FF:FF:00:00:00") }
                d.bssid = BSSIDFilter(bssid: bssid, mask: mask)
            } else {
                d.bssid = BSSIDFilter(bssid: bssid)
            }
        case "MinimumRSSI":
            guard let rssi = Int(value), (-127...20).contains(rssi) else { throw invalid("dBm from -127 to 20") }
            d.minimumRSSI = rssi
        default:
            throw KeyFileError(source: source, line: entry.line, reason: .unknownKey(section: entry.section, key: entry.key))
        }
    }
}
