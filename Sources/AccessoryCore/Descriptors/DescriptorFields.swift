/// A discovery descriptor as key/value text, the one syntax used by
/// descriptor files, the D-Bus API (an `a{ss}`) and the grant store, so an
/// administrator reads the same keys everywhere:
///
///     ServiceUUID=180F  CompanyIdentifier=0x004C  NameSubstring=Acme
///     NameCompare=case-insensitive anchored  NamePattern=Acme-*
///     ManufacturerDataBlob=0215  ManufacturerDataMask=ffff (hex)
///     ServiceDataBlob=01  ServiceDataMask=ff  Range=immediate
///     SupportedOptions=bluetoothPairingLE bluetoothTransportBridging bluetoothHID
///     SSID=Acme Camera \xff  SSIDPrefix=ACME-  (\xNN for any octet, \\ for \)
///     BSSID=02:00:00:00:00:00/ff:ff:ff:00:00:00  MinimumRSSI=-70
public enum DescriptorFields {
    public static let keys = [
        "ServiceUUID", "CompanyIdentifier", "NameSubstring", "NameCompare", "NamePattern",
        "ManufacturerDataBlob", "ManufacturerDataMask", "ServiceDataBlob", "ServiceDataMask", "Range",
        "SupportedOptions", "SSID", "SSIDPrefix", "BSSID", "MinimumRSSI",
    ]

    /// Why one field was refused.
    public enum FieldError: Error, Hashable, Sendable, CustomStringConvertible {
        case unknownKey(String)
        case duplicateKey(String)
        case invalidValue(key: String, value: String, expected: String)

        public var description: String {
            switch self {
            // Keys and values come from apps: escaped and cut short, never replayed raw.
            case .unknownKey(let key):
                "unknown descriptor key \(DisplayText.escaped(String(key.prefix(64)))); the keys are \(DescriptorFields.keys.joined(separator: ", "))"
            case .duplicateKey(let key): "descriptor key \(DisplayText.escaped(String(key.prefix(64)))) given twice; each key at most once"
            case .invalidValue(let key, let value, let expected): "\(key)=\(DisplayText.excerpt(value)): expected \(expected)"
            }
        }
    }

    /// Builds a descriptor from fields; the descriptor rules are checked
    /// separately (`validate`), so a caller can tell a typo from a rule.
    public static func descriptor(from fields: [(key: String, value: String)]) throws(FieldError) -> DiscoveryDescriptor {
        var descriptor = DiscoveryDescriptor()
        var seen = Set<String>()
        for (key, value) in fields {
            guard seen.insert(key).inserted else { throw .duplicateKey(key) }
            try apply(key: key, value: value, to: &descriptor)
        }
        return descriptor
    }

    /// Sets one field.
    public static func apply(key: String, value: String, to d: inout DiscoveryDescriptor) throws(FieldError) {
        func invalid(_ expected: String) -> FieldError { .invalidValue(key: key, value: value, expected: expected) }
        func hex() throws(FieldError) -> [UInt8] {
            guard let data = bytes(fromHex: value) else { throw invalid("hex octets, e.g. 0215") }
            return data
        }
        switch key {
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
            // Split as octets: splitting Characters cost ~7,000 instructions (callgrind,
            // issue 25). Only ASCII words and spaces are accepted, and there the two agree.
            for word in value.utf8.split(separator: UInt8(ascii: " ")) {
                if word.elementsEqual("case-insensitive".utf8) {
                    options.insert(.caseInsensitive)
                } else if word.elementsEqual("anchored".utf8) {
                    options.insert(.anchored)
                } else {
                    throw invalid("case-insensitive and/or anchored")
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
        case "SupportedOptions":
            var options: AccessorySupportOptions = []
            for word in value.split(separator: " ") {
                guard let option = supportOptionNames.first(where: { $0.name == word })?.option else {
                    throw invalid(supportOptionNames.map(\.name).joined(separator: ", "))
                }
                options.insert(option)
            }
            d.supportedOptions = options
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
            throw .unknownKey(key)
        }
    }

    /// The fields that describe `d`, in `keys` order; `descriptor(from:)` of
    /// them gives `d` back.
    public static func fields(of d: DiscoveryDescriptor) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        if let uuid = d.bluetoothServiceUUID { out.append(("ServiceUUID", "\(uuid)")) }
        if let company = d.bluetoothCompanyIdentifier { out.append(("CompanyIdentifier", "0x" + hexByte(UInt8(company >> 8), uppercase: true) + hexByte(UInt8(company & 0xFF), uppercase: true))) }
        if let name = d.bluetoothNameSubstring { out.append(("NameSubstring", name)) }
        if !d.bluetoothNameSubstringCompareOptions.isEmpty {
            var words: [String] = []
            if d.bluetoothNameSubstringCompareOptions.contains(.caseInsensitive) { words.append("case-insensitive") }
            if d.bluetoothNameSubstringCompareOptions.contains(.anchored) { words.append("anchored") }
            out.append(("NameCompare", words.joined(separator: " ")))
        }
        if let pattern = d.bluetoothNamePattern { out.append(("NamePattern", pattern)) }
        if let blob = d.bluetoothManufacturerDataBlob { out.append(("ManufacturerDataBlob", hexString(blob))) }
        if let mask = d.bluetoothManufacturerDataMask { out.append(("ManufacturerDataMask", hexString(mask))) }
        if let blob = d.bluetoothServiceDataBlob { out.append(("ServiceDataBlob", hexString(blob))) }
        if let mask = d.bluetoothServiceDataMask { out.append(("ServiceDataMask", hexString(mask))) }
        if d.bluetoothRange != .default { out.append(("Range", d.bluetoothRange.rawValue)) }
        if !d.supportedOptions.isEmpty {
            out.append(("SupportedOptions", supportOptionNames.filter { d.supportedOptions.contains($0.option) }
                .map(\.name).joined(separator: " ")))
        }
        if let ssid = d.ssid { out.append(("SSID", SSIDText.escaped(ssid.bytes))) }
        if let prefix = d.ssidPrefix { out.append(("SSIDPrefix", SSIDText.escaped(prefix))) }
        if let filter = d.bssid { out.append(("BSSID", "\(filter.bssid)/\(filter.mask)")) }
        if let rssi = d.minimumRSSI { out.append(("MinimumRSSI", "\(rssi)")) }
        return out
    }

    private static let supportOptionNames: [(name: String, option: AccessorySupportOptions)] = [
        ("bluetoothPairingLE", .bluetoothPairingLE),
        ("bluetoothTransportBridging", .bluetoothTransportBridging),
        ("bluetoothHID", .bluetoothHID),
    ]
}
