/// A validated descriptor in the form matching wants: the name lowercased once,
/// the pattern compiled, the range folded into an RSSI floor. A class, so the
/// index's buckets reach it without copying its many fields on every check.
final class CompiledDescriptor: Sendable {
    let key: DescriptorMatch
    let descriptor: DiscoveryDescriptor

    let matchesBluetooth: Bool
    let companyIdentifier: UInt16?
    let serviceUUID: BluetoothUUID?
    let manufacturerData: MaskedData?
    let serviceData: MaskedData?
    /// The first octet of the value its masked data fixes (mask 0xFF), of
    /// the manufacturer data when it is filed under its company, else of the
    /// service data: the index files it under that octet too.
    let firstOctet: UInt8?
    let nameSubstring: [UInt8]?
    let nameIsCaseInsensitive: Bool
    let nameIsAnchored: Bool
    let namePattern: NamePattern?
    let bluetoothMinimumRSSI: Int?

    let matchesWiFi: Bool
    let ssid: [UInt8]?
    let ssidPrefix: [UInt8]?
    let bssid: BSSIDFilter?
    let wifiMinimumRSSI: Int?

    init(_ descriptor: DiscoveryDescriptor, key: DescriptorMatch, configuration: MatchingConfiguration)
        throws(DiscoveryDescriptorError)
    {
        // The pattern is compiled once: validation reads the outcome instead of compiling it again.
        let compiledPattern = descriptor.bluetoothNamePattern.map { (pattern) -> Result<NamePattern, NamePatternError> in
            Result { () throws(NamePatternError) in try NamePattern(pattern) }
        }
        try descriptor.validate(compiledPattern: compiledPattern)
        self.key = key
        self.descriptor = descriptor
        matchesBluetooth = descriptor.describesBluetooth
        companyIdentifier = descriptor.bluetoothCompanyIdentifier
        serviceUUID = descriptor.bluetoothServiceUUID
        manufacturerData = descriptor.bluetoothManufacturerDataBlob.flatMap { blob in
            descriptor.bluetoothManufacturerDataMask.map { MaskedData(blob: blob, mask: $0) }
        }
        serviceData = descriptor.bluetoothServiceDataBlob.flatMap { blob in
            descriptor.bluetoothServiceDataMask.map { MaskedData(blob: blob, mask: $0) }
        }
        let filedData = companyIdentifier != nil ? manufacturerData : serviceData
        firstOctet = filedData.flatMap { $0.mask.first == 0xFF ? $0.blob.first : nil }
        let options = descriptor.bluetoothNameSubstringCompareOptions
        nameIsCaseInsensitive = options.contains(.caseInsensitive)
        nameIsAnchored = options.contains(.anchored)
        nameSubstring = descriptor.bluetoothNameSubstring.map {
            Array((options.contains(.caseInsensitive) ? $0.lowercased() : $0).utf8)
        }
        do throws(NamePatternError) {
            namePattern = try compiledPattern?.get()
        } catch {
            throw .invalidNamePattern(error)
        }
        var floor = descriptor.minimumRSSI
        if descriptor.bluetoothRange == .immediate {
            floor = max(floor ?? configuration.immediateRSSIThreshold, configuration.immediateRSSIThreshold)
        }
        bluetoothMinimumRSSI = floor

        matchesWiFi = descriptor.describesWiFi
        ssid = descriptor.ssid?.bytes
        ssidPrefix = descriptor.ssidPrefix
        bssid = descriptor.bssid
        wifiMinimumRSSI = descriptor.minimumRSSI
    }

    /// Every Bluetooth property set must hold.
    func matches(_ heard: inout HeardAdvertisement) -> Bool {
        admits(rssi: heard.rssi) && matchesData(&heard)
    }

    /// Whether `rssi` reaches the descriptor's range and minimum RSSI.
    func admits(rssi: Int?) -> Bool { MatchingIndex.Candidate.reaches(rssi, bluetoothMinimumRSSI) }

    /// Every Bluetooth property set but range and minimum RSSI must hold:
    /// what depends on the advertisement's data alone.
    func matchesData(_ heard: inout HeardAdvertisement) -> Bool {
        guard matchesBluetooth else { return false }
        if let companyIdentifier {
            // A company's structure may come more than once with different content: any value will do.
            let values = heard.manufacturerGroup(companyIdentifier)
            guard !values.isEmpty else { return false }
            if manufacturerData != nil {
                let records = heard.records
                var offset = values.lowerBound
                while offset < values.upperBound, !manufacturerData!.matches(records.manufacturerValue(at: offset)) {
                    offset = records.end(ofRecordAt: offset)
                }
                guard offset < values.upperBound else { return false }
            }
        }
        if let serviceUUID {
            let (advertised, data) = heard.service(serviceUUID)
            guard advertised else { return false }
            if serviceData != nil {
                guard let data, serviceData!.matches(data) else { return false }
            }
        }
        // Read in place (`!` after a nil check), not bound: a binding would retain the arrays.
        if nameSubstring != nil {
            guard heard.nameContains(nameSubstring!, caseInsensitive: nameIsCaseInsensitive, anchored: nameIsAnchored)
            else { return false }
        }
        if namePattern != nil {
            guard heard.nameMatches(namePattern!) else { return false }
        }
        return true
    }

    /// Every Wi-Fi property set must hold.
    func matches(_ network: WiFiNetwork) -> Bool {
        guard matchesWiFi else { return false }
        if let ssid, network.ssid.bytes != ssid { return false }
        if let ssidPrefix, !network.ssid.bytes.starts(with: ssidPrefix) { return false }
        if let bssid, !bssid.matches(network.bssid) { return false }
        if let floor = wifiMinimumRSSI {
            guard let signal = network.signalDBm, signal >= floor else { return false }
        }
        return true
    }
}
