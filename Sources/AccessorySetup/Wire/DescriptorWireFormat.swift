import AccessoryCore

/// A discovery descriptor as the D-Bus API carries it: an `a{ss}` whose keys
/// and values are those of the descriptor files (`accessoryd.conf(5)`,
/// `accessoryd --descriptors`), so an app's request reads like the file an
/// administrator would write to test it. Properties left at their defaults
/// are not sent.
enum DescriptorWireFormat {
    /// Every key, in the order `pairs(of:)` writes them.
    static let keys = [
        "ServiceUUID", "CompanyIdentifier", "NameSubstring", "NameCompare", "NamePattern",
        "ManufacturerDataBlob", "ManufacturerDataMask", "ServiceDataBlob", "ServiceDataMask", "Range",
        "SupportedOptions", "SSID", "SSIDPrefix", "BSSID", "MinimumRSSI",
    ]

    static let nameCompareWords: [(word: String, option: NameCompareOptions)] = [
        ("case-insensitive", .caseInsensitive), ("anchored", .anchored),
    ]

    static let supportOptionWords: [(word: String, option: AccessorySupportOptions)] = [
        ("bluetoothPairingLE", .bluetoothPairingLE),
        ("bluetoothTransportBridging", .bluetoothTransportBridging),
        ("bluetoothHID", .bluetoothHID),
    ]

    static func pairs(of d: DiscoveryDescriptor) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        if let uuid = d.bluetoothServiceUUID { out.append(("ServiceUUID", "\(uuid)")) }
        if let company = d.bluetoothCompanyIdentifier {
            out.append(("CompanyIdentifier", "0x" + hexByte(UInt8(company >> 8), uppercase: true)
                + hexByte(UInt8(company & 0xFF), uppercase: true)))
        }
        if let name = d.bluetoothNameSubstring { out.append(("NameSubstring", name)) }
        let compare = nameCompareWords.filter { d.bluetoothNameSubstringCompareOptions.contains($0.option) }
        if !compare.isEmpty { out.append(("NameCompare", compare.map(\.word).joined(separator: " "))) }
        if let pattern = d.bluetoothNamePattern { out.append(("NamePattern", pattern)) }
        if let blob = d.bluetoothManufacturerDataBlob { out.append(("ManufacturerDataBlob", hexString(blob))) }
        if let mask = d.bluetoothManufacturerDataMask { out.append(("ManufacturerDataMask", hexString(mask))) }
        if let blob = d.bluetoothServiceDataBlob { out.append(("ServiceDataBlob", hexString(blob))) }
        if let mask = d.bluetoothServiceDataMask { out.append(("ServiceDataMask", hexString(mask))) }
        if d.bluetoothRange != .default { out.append(("Range", d.bluetoothRange.rawValue)) }
        let support = supportOptionWords.filter { d.supportedOptions.contains($0.option) }
        if !support.isEmpty { out.append(("SupportedOptions", support.map(\.word).joined(separator: " "))) }
        if let ssid = d.ssid { out.append(("SSID", SSIDWireText.text(ssid.bytes))) }
        if let prefix = d.ssidPrefix { out.append(("SSIDPrefix", SSIDWireText.text(prefix))) }
        if let filter = d.bssid { out.append(("BSSID", "\(filter.bssid)/\(filter.mask)")) }
        if let rssi = d.minimumRSSI { out.append(("MinimumRSSI", "\(rssi)")) }
        return out
    }

    /// Why an `a{ss}` from the agent is not a descriptor.
    enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case unknownKey(String)
        case duplicateKey(String)
        case invalidValue(key: String, value: String, expected: String)

        var description: String {
            switch self {
            case .unknownKey(let key): "unknown descriptor key \(key)"
            case .duplicateKey(let key): "descriptor key \(key) given twice"
            case .invalidValue(let key, let value, let expected): "\(key)=\(value): expected \(expected)"
            }
        }
    }

    /// The descriptor an accessory was granted for (its `Descriptor` property).
    /// The rules are the agent's to check; this only reads the values.
    static func descriptor(from pairs: [(key: String, value: String)]) throws(DecodingError) -> DiscoveryDescriptor {
        var d = DiscoveryDescriptor()
        var seen = Set<String>()
        for (key, value) in pairs {
            guard seen.insert(key).inserted else { throw .duplicateKey(key) }
            try apply(key: key, value: value, to: &d)
        }
        return d
    }

    private static func apply(key: String, value: String, to d: inout DiscoveryDescriptor) throws(DecodingError) {
        func invalid(_ expected: String) -> DecodingError { .invalidValue(key: key, value: value, expected: expected) }
        func hex() throws(DecodingError) -> [UInt8] {
            guard let octets = bytes(fromHex: value) else { throw invalid("hex octets") }
            return octets
        }
        func words<Option: OptionSet>(_ table: [(word: String, option: Option)]) throws(DecodingError) -> Option
        where Option.Element == Option {
            var options: Option = []
            for word in value.split(separator: " ") {
                guard let option = table.first(where: { $0.word == word })?.option else {
                    throw invalid(table.map(\.word).joined(separator: ", "))
                }
                options.insert(option)
            }
            return options
        }
        func ssidOctets() throws(DecodingError) -> [UInt8] {
            do { return try SSIDWireText.octets(value) } catch { throw invalid("text with \\xNN escapes") }
        }
        switch key {
        case "ServiceUUID":
            guard let uuid = BluetoothUUID(value) else { throw invalid("a 16-, 32- or 128-bit UUID") }
            d.bluetoothServiceUUID = uuid
        case "CompanyIdentifier":
            let parsed = value.hasPrefix("0x") || value.hasPrefix("0X")
                ? UInt16(value.dropFirst(2), radix: 16) : UInt16(value, radix: 10)
            guard let parsed else { throw invalid("0x004C or 76") }
            d.bluetoothCompanyIdentifier = parsed
        case "NameSubstring": d.bluetoothNameSubstring = value
        case "NameCompare": d.bluetoothNameSubstringCompareOptions = try words(nameCompareWords)
        case "NamePattern": d.bluetoothNamePattern = value
        case "ManufacturerDataBlob": d.bluetoothManufacturerDataBlob = try hex()
        case "ManufacturerDataMask": d.bluetoothManufacturerDataMask = try hex()
        case "ServiceDataBlob": d.bluetoothServiceDataBlob = try hex()
        case "ServiceDataMask": d.bluetoothServiceDataMask = try hex()
        case "Range":
            guard let range = BluetoothRange(rawValue: value) else { throw invalid("default or immediate") }
            d.bluetoothRange = range
        case "SupportedOptions": d.supportedOptions = try words(supportOptionWords)
        case "SSID":
            guard let ssid = SSID(bytes: try ssidOctets()) else { throw invalid("at most 32 octets") }
            d.ssid = ssid
        case "SSIDPrefix": d.ssidPrefix = try ssidOctets()
        case "BSSID":
            let parts = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bssid = HardwareAddress(parts[0]) else { throw invalid("AA:BB:CC:DD:EE:FF[/mask]") }
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
            throw .unknownKey(key)
        }
    }
}
