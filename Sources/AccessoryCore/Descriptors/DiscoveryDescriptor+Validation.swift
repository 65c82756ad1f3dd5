extension DiscoveryDescriptor {
    /// Every rule this descriptor breaks, in a fixed order (empty when valid),
    /// so a developer sees all of them at once.
    public var violations: [DiscoveryDescriptorError] {
        var found: [DiscoveryDescriptorError] = []
        guard describesBluetooth || describesWiFi else { return [.describesNothing] }
        if describesBluetooth { found += bluetoothViolations }
        if describesWiFi { found += wifiViolations }
        if let minimumRSSI, !DiscoveryDescriptorError.rssiRange.contains(minimumRSSI) {
            found.append(.minimumRSSIOutOfRange(minimumRSSI))
        }
        return found
    }

    /// Throws the first rule broken.
    public func validate() throws(DiscoveryDescriptorError) {
        if let first = violations.first { throw first }
    }

    private var bluetoothViolations: [DiscoveryDescriptorError] {
        var found: [DiscoveryDescriptorError] = []
        if bluetoothCompanyIdentifier == nil, bluetoothServiceUUID == nil {
            found.append(.missingBluetoothIdentifier)
        }
        let hasName = bluetoothNameSubstring != nil || bluetoothNamePattern != nil
        let hasData = bluetoothManufacturerDataBlob != nil || bluetoothManufacturerDataMask != nil
            || bluetoothServiceDataBlob != nil || bluetoothServiceDataMask != nil
        if !(bluetoothCompanyIdentifier == nil && bluetoothServiceUUID == nil), !hasName, !hasData {
            found.append(.missingBluetoothCriterion)
        }
        if bluetoothNameSubstring?.isEmpty == true { found.append(.emptyNameSubstring) }
        if let pattern = bluetoothNamePattern {
            do throws(NamePatternError) { _ = try NamePattern(pattern) } catch { found.append(.invalidNamePattern(error)) }
        }
        found += Self.dataViolations(.manufacturerData, blob: bluetoothManufacturerDataBlob, mask: bluetoothManufacturerDataMask)
        found += Self.dataViolations(.serviceData, blob: bluetoothServiceDataBlob, mask: bluetoothServiceDataMask)
        if bluetoothManufacturerDataBlob != nil || bluetoothManufacturerDataMask != nil, bluetoothCompanyIdentifier == nil {
            found.append(.manufacturerDataWithoutCompanyIdentifier)
        }
        if bluetoothServiceDataBlob != nil || bluetoothServiceDataMask != nil, bluetoothServiceUUID == nil {
            found.append(.serviceDataWithoutServiceUUID)
        }
        return found
    }

    private static func dataViolations(
        _ property: DiscoveryDescriptorError.DataProperty, blob: [UInt8]?, mask: [UInt8]?
    ) -> [DiscoveryDescriptorError] {
        switch (blob, mask) {
        case (nil, nil): return []
        case (.some, nil): return [.missingMask(property)]
        case (nil, .some): return [.missingBlob(property)]
        case (let blob?, let mask?):
            if blob.count != mask.count {
                return [.blobMaskLengthMismatch(property, blobLength: blob.count, maskLength: mask.count)]
            }
            return mask.isEmpty ? [.emptyMask(property)] : []
        }
    }

    private var wifiViolations: [DiscoveryDescriptorError] {
        var found: [DiscoveryDescriptorError] = []
        switch (ssid, ssidPrefix) {
        case (nil, nil): found.append(.missingSSID)
        case (.some, .some): found.append(.ssidAndSSIDPrefixBothSet)
        default: break
        }
        if let ssid, ssid.bytes.isEmpty { found.append(.emptySSID) }
        if let ssidPrefix {
            if ssidPrefix.isEmpty { found.append(.emptySSIDPrefix) }
            if ssidPrefix.count > SSID.maximumLength { found.append(.ssidPrefixTooLong(length: ssidPrefix.count)) }
        }
        return found
    }
}
