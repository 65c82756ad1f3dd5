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
        // Each entry belongs to the last header above it. Both lists are in
        // line order, so one pass over them sorts the entries to their
        // sections: searching all entries and headers per section would make
        // a file of many sections quadratic.
        var entriesByHeader = Array(repeating: [KeyFile.Entry](), count: file.sectionHeaders.count)
        var headerIndex = -1
        for entry in file.entries {
            while headerIndex + 1 < file.sectionHeaders.count, file.sectionHeaders[headerIndex + 1].line < entry.line {
                headerIndex += 1
            }
            // KeyFile refuses an entry before the first header.
            if headerIndex >= 0 { entriesByHeader[headerIndex].append(entry) }
        }
        var entries: [Entry] = []
        for (header, own) in zip(file.sectionHeaders, entriesByHeader) {
            guard header.name.hasPrefix("Descriptor "), header.name.count > "Descriptor ".count else {
                throw KeyFileError(source: source, line: header.line, reason: .unknownSection(header.name))
            }
            let name = String(header.name.dropFirst("Descriptor ".count))
            var app = AppID("monitor")
            var descriptor = DiscoveryDescriptor()
            // A list, not a Set: a section holds a handful of keys, and a Set
            // of Strings cost ~5,000 instructions a descriptor (callgrind, issue 25).
            // It stays that short: a key that is not a descriptor's throws in `apply`.
            var seen: [String] = []
            for entry in own {
                guard !seen.contains(entry.key) else {
                    throw KeyFileError(source: source, line: entry.line,
                                       reason: .duplicateKey(section: header.name, key: entry.key))
                }
                seen.append(entry.key)
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
        if entry.key == "App" {
            guard !entry.value.isEmpty else {
                throw KeyFileError(source: source, line: entry.line, reason: .invalidValue(
                    section: entry.section, key: entry.key, value: entry.value, expected: "an app name"))
            }
            app = AppID(entry.value)
            return
        }
        do throws(DescriptorFields.FieldError) {
            try DescriptorFields.apply(key: entry.key, value: entry.value, to: &d)
        } catch {
            switch error {
            case .unknownKey, .duplicateKey:
                throw KeyFileError(source: source, line: entry.line, reason: .unknownKey(section: entry.section, key: entry.key))
            case .invalidValue(_, _, let expected):
                throw KeyFileError(source: source, line: entry.line, reason: .invalidValue(
                    section: entry.section, key: entry.key, value: entry.value, expected: expected))
            }
        }
    }
}
