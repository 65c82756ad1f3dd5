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
        // line order, so a section's entries are the run of entries up to the
        // next header's line: one pass over both finds every run, where
        // searching all entries per section would make a file of many
        // sections quadratic, and an array of its own per section cost ~1,500
        // instructions a descriptor (callgrind, issue 25).
        let prefix = "Descriptor "
        var entries: [Entry] = []
        entries.reserveCapacity(file.sectionHeaders.count)
        var next = 0
        for (number, header) in file.sectionHeaders.enumerated() {
            // KeyFile refuses an entry before the first header, so none is skipped here.
            let start = next
            let following = number + 1 < file.sectionHeaders.count ? file.sectionHeaders[number + 1].line : Int.max
            while next < file.entries.count, file.entries[next].line < following { next += 1 }
            // Section names are ASCII (KeyFile's rule), so octets count as Characters.
            guard header.name.hasPrefix(prefix), header.name.utf8.count > prefix.utf8.count else {
                throw KeyFileError(source: source, line: header.line, reason: .unknownSection(header.name))
            }
            let name = String(Substring(header.name.utf8.dropFirst(prefix.utf8.count)))
            var app = AppID("monitor")
            var descriptor = DiscoveryDescriptor()
            for index in start..<next {
                try apply(file.entries, index, after: start, to: &descriptor, app: &app, source: source)
            }
            do throws(DiscoveryDescriptorError) {
                try descriptor.validate()
            } catch {
                throw KeyFileError(
                    source: source, line: header.line,
                    reason: .invalidSection(section: header.name, reason: "\(error)"))
            }
            entries.append(Entry(name: name, app: app, id: DescriptorID(UInt64(entries.count + 1)), descriptor: consume descriptor))
        }
        return entries
    }

    /// Applies `entries[index]`, whose section's entries start at `start`.
    private static func apply(
        _ entries: [KeyFile.Entry], _ index: Int, after start: Int, to d: inout DiscoveryDescriptor, app: inout AppID,
        source: String
    ) throws(KeyFileError) {
        // The keys before it in its section: at most one of each a
        // descriptor has, since an unknown or repeated one throws.
        var earlier = start
        while earlier < index {
            guard entries[earlier].key != entries[index].key else {
                throw KeyFileError(source: source, line: entries[index].line,
                                   reason: .duplicateKey(section: entries[index].section, key: entries[index].key))
            }
            earlier += 1
        }
        // Its fields, not the entry: a copy of each entry cost ~170 instructions.
        let key = entries[index].key, value = entries[index].value
        // The length first: most keys are not `App`, and a comparison of
        // unequal Strings costs ~70 instructions.
        if key.utf8.count == 3, key == "App" {
            guard !value.isEmpty else {
                throw KeyFileError(source: source, line: entries[index].line, reason: .invalidValue(
                    section: entries[index].section, key: key, value: value, expected: "an app name"))
            }
            app = AppID(value)
            return
        }
        do throws(DescriptorFields.FieldError) {
            try DescriptorFields.apply(key: key, value: value, to: &d)
        } catch {
            switch error {
            case .unknownKey, .duplicateKey:
                throw KeyFileError(source: source, line: entries[index].line,
                                   reason: .unknownKey(section: entries[index].section, key: key))
            case .invalidValue(_, _, let expected):
                throw KeyFileError(source: source, line: entries[index].line, reason: .invalidValue(
                    section: entries[index].section, key: key, value: value, expected: expected))
            }
        }
    }
}
