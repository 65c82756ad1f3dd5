/// One advertisement while it is being matched: the derived forms of its name
/// are computed at most once however many descriptors look at it.
struct HeardAdvertisement {
    let data: AdvertisingData
    let rssi: Int?
    private var nameState: NameState = .notComputed
    private var lowercasedName: [UInt8]?? = nil
    private var nameScalars: [Unicode.Scalar]?? = nil

    private enum NameState {
        case notComputed
        case computed(String?, [UInt8]?)
    }

    init(data: AdvertisingData, rssi: Int?) {
        self.data = data
        self.rssi = rssi
    }

    private mutating func name() -> (String?, [UInt8]?) {
        if case .computed(let text, let bytes) = nameState { return (text, bytes) }
        let text = data.localName
        let bytes = text.map { Array($0.utf8) }
        nameState = .computed(text, bytes)
        return (text, bytes)
    }

    /// The name as UTF-8 (invalid sequences replaced), or nil when the device sent none.
    mutating func nameUTF8() -> [UInt8]? { name().1 }

    mutating func lowercasedNameUTF8() -> [UInt8]? {
        if let cached = lowercasedName { return cached }
        let value = name().0.map { Array($0.lowercased().utf8) }
        lowercasedName = .some(value)
        return value
    }

    mutating func nameUnicodeScalars() -> [Unicode.Scalar]? {
        if let cached = nameScalars { return cached }
        let value = name().0.map { Array($0.unicodeScalars) }
        nameScalars = .some(value)
        return value
    }

    /// Whether the device advertises `uuid` in a service list or as a service-data key.
    func advertises(_ uuid: BluetoothUUID) -> Bool {
        data.serviceData[uuid] != nil || data.completeServiceUUIDs.contains(uuid)
            || data.incompleteServiceUUIDs.contains(uuid)
    }
}
