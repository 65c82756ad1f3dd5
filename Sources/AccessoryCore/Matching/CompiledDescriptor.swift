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
        try descriptor.validate()
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
        let options = descriptor.bluetoothNameSubstringCompareOptions
        nameIsCaseInsensitive = options.contains(.caseInsensitive)
        nameIsAnchored = options.contains(.anchored)
        nameSubstring = descriptor.bluetoothNameSubstring.map {
            Array((options.contains(.caseInsensitive) ? $0.lowercased() : $0).utf8)
        }
        do throws(NamePatternError) {
            namePattern = try descriptor.bluetoothNamePattern.map { (p) throws(NamePatternError) in try NamePattern(p) }
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
            guard let values = heard.data.manufacturerDataValues[companyIdentifier], !values.isEmpty else { return false }
            if let manufacturerData, !values.contains(where: manufacturerData.matches) { return false }
        }
        if let serviceUUID {
            guard heard.advertises(serviceUUID) else { return false }
            if let serviceData {
                guard let data = heard.data.serviceData[serviceUUID], serviceData.matches(data) else { return false }
            }
        }
        if let nameSubstring {
            let heardName = nameIsCaseInsensitive ? heard.lowercasedNameUTF8() : heard.nameUTF8()
            guard let heardName else { return false }
            let found = nameIsAnchored
                ? heardName.starts(with: nameSubstring) : Self.contains(heardName, nameSubstring)
            guard found else { return false }
        }
        if let namePattern {
            guard let scalars = heard.nameUnicodeScalars(), namePattern.matches(scalars: scalars) else { return false }
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

    /// Byte substring search; names are at most a few hundred bytes, so the plain way is the fast way.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            var i = 0
            while i < needle.count, haystack[start + i] == needle[i] { i += 1 }
            if i == needle.count { return true }
            start += 1
        }
        return false
    }
}
