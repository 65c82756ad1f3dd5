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
        let value = name().map { Array($0.utf8) }
        nameBytes = .some(value)
        return value
    }

    mutating func lowercasedNameUTF8() -> [UInt8]? {
        if let cached = lowercasedBytes { return cached }
        let value = name().map { Array($0.lowercased().utf8) }
        lowercasedBytes = .some(value)
        return value
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
