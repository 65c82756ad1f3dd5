/// One advertisement while it is being matched, read where its data lies:
/// the name is checked as the bytes it was sent as when it is ASCII (the
/// usual case), so matching allocates nothing; any other name is decoded
/// at most once however many descriptors look at it. Each cache is doubly
/// optional: nil means "not computed yet", `.some(nil)` "no name".
struct HeardAdvertisement {
    let records: ADRecordView
    let rssi: Int?
    /// The name as sent (complete, else shortened), borrowed; looked up on
    /// first use, as most advertisements meet no descriptor that asks for a
    /// name (looked up at init, it was most of the init's ~125 instructions
    /// an advertisement, callgrind, issue 25).
    private var sentName: UnsafeRawBufferPointer?? = nil
    private var asciiName: Bool? = nil
    private var nameText: String?? = nil
    private var nameBytes: [UInt8]?? = nil
    private var lowercasedBytes: [UInt8]?? = nil
    private var scalars: [Unicode.Scalar]?? = nil

    /// The last company and UUID asked about, and what was found: a
    /// bucket's descriptors all ask about the same one.
    private var company: UInt16? = nil
    private var companyValues: Range<Int> = 0..<0
    private var service: BluetoothUUID? = nil
    private var serviceAdvertised = false
    private var serviceDataValue: UnsafeRawBufferPointer? = nil

    init(records: ADRecordView, rssi: Int?) {
        self.records = records
        self.rssi = rssi
    }

    /// The name as sent, or nil when the device sent none.
    private mutating func name() -> UnsafeRawBufferPointer? {
        if let sentName { return sentName }
        let name = records.localName
        sentName = .some(name)
        return name
    }

    /// The manufacturer data records of `company` (empty when it sent none).
    mutating func manufacturerGroup(_ company: UInt16) -> Range<Int> {
        if company != self.company {
            self.company = company
            companyValues = records.manufacturerGroup(company)
        }
        return companyValues
    }

    /// Whether the device advertises `uuid` (in a service list or as a
    /// service-data key), and the value of its service data if any.
    mutating func service(_ uuid: BluetoothUUID) -> (advertised: Bool, data: UnsafeRawBufferPointer?) {
        if uuid != service {
            service = uuid
            serviceDataValue = records.serviceData(uuid)
            serviceAdvertised = serviceDataValue != nil || records.listContains(ADRecords.Kind.completeUUIDs, uuid)
                || records.listContains(ADRecords.Kind.incompleteUUIDs, uuid)
        }
        return (serviceAdvertised, serviceDataValue)
    }

    /// Whether the device sent a name whose every byte is ASCII (and so valid UTF-8 as it is).
    private mutating func nameIsASCII() -> Bool {
        if let asciiName { return asciiName }
        let name = name()
        var ascii = name != nil
        if let name {
            var index = 0
            while ascii, index < name.count {
                ascii = name[index] < 0x80
                index += 1
            }
        }
        asciiName = ascii
        return ascii
    }

    /// Whether the name (lowercased first when `caseInsensitive`) holds
    /// `needle`, at its start when `anchored`; false when there is no name.
    mutating func nameContains(_ needle: [UInt8], caseInsensitive: Bool, anchored: Bool) -> Bool {
        guard let name = name() else { return false }
        if nameIsASCII() {
            // Lowercasing ASCII maps A-Z alone, as `String.lowercased()` does for it.
            return needle.withUnsafeBytes { needle in
                Self.contains(name, needle, anchored: anchored) { caseInsensitive && $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
            }
        }
        guard let haystack = caseInsensitive ? lowercasedNameUTF8() : nameUTF8() else { return false }
        return haystack.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in Self.contains(haystack, needle, anchored: anchored) { $0 } }
        }
    }

    /// Whether the whole name matches `pattern`; false when there is no name.
    mutating func nameMatches(_ pattern: NamePattern) -> Bool {
        guard let name = name() else { return false }
        if nameIsASCII() { return pattern.matches(count: name.count) { Unicode.Scalar(name[$0]) } }
        guard let scalars = nameUnicodeScalars() else { return false }
        return pattern.matches(scalars: scalars)
    }

    /// Byte substring search, each haystack byte mapped by `fold`; names are
    /// at most a few hundred bytes, so the plain way is the fast way.
    private static func contains(
        _ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer, anchored: Bool, _ fold: (UInt8) -> UInt8
    ) -> Bool {
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        let last = anchored ? 0 : haystack.count - needle.count
        var start = 0
        while start <= last {
            var i = 0
            while i < needle.count, fold(haystack[start + i]) == needle[i] { i += 1 }
            if i == needle.count { return true }
            start += 1
        }
        return false
    }

    /// The name as text, invalid UTF-8 replaced by U+FFFD.
    private mutating func nameString() -> String? {
        if let cached = nameText { return cached }
        let value = name().map { String(decoding: $0, as: UTF8.self) }
        nameText = .some(value)
        return value
    }

    /// The name as UTF-8, or nil when the device sent none.
    private mutating func nameUTF8() -> [UInt8]? {
        if let cached = nameBytes { return cached }
        let value = nameString().map { Array($0.utf8) }
        nameBytes = .some(value)
        return value
    }

    private mutating func lowercasedNameUTF8() -> [UInt8]? {
        if let cached = lowercasedBytes { return cached }
        let value = nameString().map { Array($0.lowercased().utf8) }
        lowercasedBytes = .some(value)
        return value
    }

    private mutating func nameUnicodeScalars() -> [Unicode.Scalar]? {
        if let cached = scalars { return cached }
        let value = nameString().map { Array($0.unicodeScalars) }
        scalars = .some(value)
        return value
    }
}
