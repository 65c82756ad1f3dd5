/// The radio PHY an advertisement was heard on (extended advertising reports say which).
public enum BluetoothPHY: UInt8, Hashable, Sendable {
    case le1M = 0x01
    case le2M = 0x02
    case leCoded = 0x03
}

/// What kind of advertising PDU a report came from.
public struct AdvertisingProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectable = AdvertisingProperties(rawValue: 1 << 0)
    public static let scannable = AdvertisingProperties(rawValue: 1 << 1)
    public static let directed = AdvertisingProperties(rawValue: 1 << 2)
    public static let scanResponse = AdvertisingProperties(rawValue: 1 << 3)
    /// Came from a legacy advertising PDU (ADV_IND and friends).
    public static let legacy = AdvertisingProperties(rawValue: 1 << 4)
}

/// One Bluetooth LE advertisement as heard by a controller, possibly with the
/// device's scan response merged in.
public struct Advertisement: Hashable, Sendable {
    public var device: BluetoothDeviceIdentifier
    public var properties: AdvertisingProperties
    /// In dBm; nil when the controller said 127 ("not available").
    public var rssi: Int8?
    /// The advertiser's TX power from an extended report, in dBm; nil when not given.
    public var txPower: Int8?
    public var primaryPHY: BluetoothPHY?
    public var secondaryPHY: BluetoothPHY?
    /// The parsed AD content of the advertisement and any merged scan
    /// response: `advertisedData.adding(scanResponseData)`.
    public var data: AdvertisingData
    /// What the advertising PDUs said (each newer one overlaid on the last).
    public var advertisedData: AdvertisingData
    /// What the scan responses said (likewise), once one has been heard.
    public var scanResponseData: AdvertisingData?
    /// The AD bytes of the advertising PDU as heard.
    public var rawAdvertisingData: [UInt8]
    /// The AD bytes of the scan response, once one has been merged in.
    public var rawScanResponse: [UInt8]?
    /// The HCI index of the controller that heard it (`hci0` is 0).
    public var controllerIndex: UInt16?

    public init(
        device: BluetoothDeviceIdentifier,
        properties: AdvertisingProperties = [],
        rssi: Int8? = nil,
        txPower: Int8? = nil,
        primaryPHY: BluetoothPHY? = nil,
        secondaryPHY: BluetoothPHY? = nil,
        data: AdvertisingData = AdvertisingData(),
        rawAdvertisingData: [UInt8] = [],
        rawScanResponse: [UInt8]? = nil,
        controllerIndex: UInt16? = nil
    ) {
        self.device = device
        self.properties = properties
        self.rssi = rssi
        self.txPower = txPower
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.data = data
        let isScanResponse = properties.contains(.scanResponse)
        self.advertisedData = isScanResponse ? AdvertisingData() : data
        self.scanResponseData = isScanResponse ? data : nil
        self.rawAdvertisingData = rawAdvertisingData
        self.rawScanResponse = rawScanResponse
        self.controllerIndex = controllerIndex
    }

    public var isConnectable: Bool { properties.contains(.connectable) }
    public var isScannable: Bool { properties.contains(.scannable) }

    /// Merges a report from the same device: a scan response is overlaid on
    /// the scan responses heard before, a new advertisement on the
    /// advertisements before (and replaces the radio facts: RSSI, PHY,
    /// properties); `data` is then the advertisements' data with the scan
    /// responses' added (see `AdvertisingData.adding(_:)`), so it is the same
    /// whichever of the two was heard last.
    public func merging(_ report: Advertisement) -> Advertisement {
        var merged = self
        merged.merge(report)
        return merged
    }

    /// `merging(_:)` in place: a uniquely held value's storage is rewritten, not copied.
    public mutating func merge(_ report: Advertisement) {
        // A report of another device is not ours to merge: it stands alone.
        guard report.device == device else {
            self = report
            return
        }
        report.rawAdvertisingData.withUnsafeBytes { merge(report.facts, data: report.data, payload: $0) }
    }

    /// `merge(_:)` for a report of this device given as its radio facts, its
    /// parsed AD and the AD bytes (borrowed: they are copied into storage
    /// this value already holds). The intake's path for a device it knows:
    /// once this value's storage is large enough, a changed payload is
    /// merged without allocating. Does nothing for a report of another device.
    public mutating func merge(_ facts: AdvertisingReportFacts, data newData: AdvertisingData, payload: UnsafeRawBufferPointer) {
        guard facts.device == device else { return }
        note(facts)
        if facts.isScanResponse {
            if scanResponseData == nil {
                scanResponseData = newData
            } else {
                scanResponseData!.overlay(newData)
            }
            if rawScanResponse == nil { rawScanResponse = [] }
            Self.copy(payload, into: &rawScanResponse!)
        } else {
            // While no scan response is known, `data` shares its storage with
            // `advertisedData`: let go of it first, so the overlay writes in place.
            if scanResponseData == nil { data = AdvertisingData() }
            advertisedData.overlay(newData)
            Self.copy(payload, into: &rawAdvertisingData)
        }
        if let scanResponseData {
            // `data` has storage of its own once a scan response is known: rewritten in place.
            data.assign(advertisedData)
            data.add(scanResponseData)
        } else {
            data = advertisedData
        }
    }

    /// Becomes the advertisement of a device's first report, as
    /// `init(device:properties:rssi:…:data:rawAdvertisingData:controllerIndex:)`
    /// makes it from these facts, data and bytes, but written into the
    /// storage this value holds: the registry reuses an evicted device's.
    public mutating func becomeFirst(_ facts: AdvertisingReportFacts, data newData: AdvertisingData, payload: UnsafeRawBufferPointer) {
        device = facts.device
        properties = facts.properties
        rssi = facts.rssi
        txPower = facts.txPower
        primaryPHY = facts.primaryPHY
        secondaryPHY = facts.secondaryPHY
        controllerIndex = facts.controllerIndex
        // `data` shares its storage with the data of the packet's kind, as the initialiser's does.
        data = AdvertisingData()
        if facts.isScanResponse {
            advertisedData.removeAll()
            if scanResponseData == nil { scanResponseData = AdvertisingData() }
            scanResponseData!.assign(newData)
            data = scanResponseData!
        } else {
            scanResponseData = nil
            advertisedData.assign(newData)
            data = advertisedData
        }
        Self.copy(payload, into: &rawAdvertisingData)
        rawScanResponse = nil
    }

    private static func copy(_ payload: UnsafeRawBufferPointer, into bytes: inout [UInt8]) {
        // One call, in the storage there is: emptying and then appending cost
        // ~180 instructions a changed report (callgrind, issue 25).
        bytes.replaceSubrange(bytes.startIndex..<bytes.endIndex, with: payload)
    }

    /// The radio facts of this report, without its AD.
    public var facts: AdvertisingReportFacts {
        AdvertisingReportFacts(
            device: device, properties: properties, rssi: rssi, txPower: txPower, primaryPHY: primaryPHY,
            secondaryPHY: secondaryPHY, controllerIndex: controllerIndex)
    }

    /// Takes the radio facts of a newer report of this device, as `merge`
    /// does: RSSI, TX power and controller always; properties and PHYs from
    /// an advertising PDU only (a scan response answers the advertisement).
    public mutating func note(_ facts: AdvertisingReportFacts) {
        rssi = facts.rssi ?? rssi
        txPower = facts.txPower ?? txPower
        controllerIndex = facts.controllerIndex ?? controllerIndex
        if !facts.isScanResponse {
            properties = facts.properties
            primaryPHY = facts.primaryPHY ?? primaryPHY
            secondaryPHY = facts.secondaryPHY ?? secondaryPHY
        }
    }

    /// Whether `payload` is the AD this advertisement last took from a report
    /// of the kind `facts` describes: its advertising PDU, or its scan response.
    public func lastPayload(for facts: AdvertisingReportFacts, equals payload: UnsafeRawBufferPointer) -> Bool {
        guard facts.device == device else { return false }
        if facts.isScanResponse {
            guard let rawScanResponse else { return false }
            return Self.same(rawScanResponse, payload)
        }
        // Made from a scan response alone, `rawAdvertisingData` holds that response's bytes.
        guard !properties.contains(.scanResponse) else { return false }
        return Self.same(rawAdvertisingData, payload)
    }

    private static func same(_ bytes: [UInt8], _ payload: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == payload.count else { return false }
        // A plain loop: `elementsEqual`, unspecialised in a debug build, allocates type metadata.
        return bytes.withUnsafeBytes { stored in
            for index in 0..<stored.count where stored[index] != payload[index] { return false }
            return true
        }
    }
}
