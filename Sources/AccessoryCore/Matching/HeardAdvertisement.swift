/// One advertisement while it is being matched: the derived forms of its name
/// are computed at most once however many descriptors look at it. Each cache
/// is doubly optional: nil means "not computed yet", `.some(nil)` "no name".
struct HeardAdvertisement {
    let data: AdvertisingData
    let rssi: Int?
    private var nameText: String?? = nil
    private var nameBytes: [UInt8]?? = nil
    private var lowercasedBytes: [UInt8]?? = nil
    private var scalars: [Unicode.Scalar]?? = nil

    init(data: AdvertisingData, rssi: Int?) {
        self.data = data
        self.rssi = rssi
    }

    /// The name as text, invalid UTF-8 replaced by U+FFFD.
    private mutating func name() -> String? {
        if let cached = nameText { return cached }
        let value = data.localName
        nameText = .some(value)
        return value
    }

    /// The name as UTF-8, or nil when the device sent none.
    mutating func nameUTF8() -> [UInt8]? {
        if let cached = nameBytes { return cached }
        // ASCII is already valid UTF-8: the bytes as sent, without building a String.
        let value = Self.asciiName(data) ?? name().map { Array($0.utf8) }
        nameBytes = .some(value)
        return value
    }

    mutating func lowercasedNameUTF8() -> [UInt8]? {
        if let cached = lowercasedBytes { return cached }
        let value: [UInt8]?
        if let ascii = Self.asciiName(data) {
            // Lowercasing ASCII maps A-Z alone, as `String.lowercased()` does for it.
            let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
            value = ascii.contains(where: upper.contains) ? ascii.map { upper.contains($0) ? $0 + 32 : $0 } : ascii
        } else {
            value = name().map { Array($0.lowercased().utf8) }
        }
        lowercasedBytes = .some(value)
        return value
    }

    /// The name's bytes when it has a name and every byte is ASCII; nil otherwise.
    private static func asciiName(_ data: AdvertisingData) -> [UInt8]? {
        guard let bytes = data.localNameBytes, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes
    }

    mutating func nameUnicodeScalars() -> [Unicode.Scalar]? {
        if let cached = scalars { return cached }
        let value = name().map { Array($0.unicodeScalars) }
        scalars = .some(value)
        return value
    }

    /// Whether the device advertises `uuid` in a service list or as a service-data key.
    func advertises(_ uuid: BluetoothUUID) -> Bool {
        data.serviceData[uuid] != nil || data.completeServiceUUIDs.contains(uuid)
            || data.incompleteServiceUUIDs.contains(uuid)
    }
}
