extension DiscoveryDescriptor {
    /// Every rule this descriptor breaks, in a fixed order (empty when valid),
    /// so a developer sees all of them at once.
    public var violations: [DiscoveryDescriptorError] {
        var found: [DiscoveryDescriptorError] = []
        forEachViolation { found.append($0); return true }
        return found
    }

    /// Throws the first rule broken. Stops there and builds no list: a valid
    /// descriptor is checked once read and again when indexed, and the lists
    /// cost ~800 instructions a check (callgrind, issue 25).
    public func validate() throws(DiscoveryDescriptorError) {
        try validate(compiledPattern: nil)
    }

    /// The same, given `bluetoothNamePattern` already compiled (or its
    /// error), for a caller that keeps the compiled pattern: nil compiles it here.
    func validate(compiledPattern: Result<NamePattern, NamePatternError>?) throws(DiscoveryDescriptorError) {
        var first: DiscoveryDescriptorError?
        forEachViolation(compiledPattern: compiledPattern) { first = $0; return false }
        if let first { throw first }
    }

    /// Calls `body` with each rule broken, in the order `violations` lists
    /// them, for as long as it returns true.
    private func forEachViolation(
        compiledPattern: Result<NamePattern, NamePatternError>? = nil, _ body: (DiscoveryDescriptorError) -> Bool
    ) {
        guard describesBluetooth || describesWiFi else { _ = body(.describesNothing); return }
        if describesBluetooth, !forEachBluetoothViolation(compiledPattern: compiledPattern, body) { return }
        if describesWiFi, !forEachWiFiViolation(body) { return }
        if let minimumRSSI, !DiscoveryDescriptorError.rssiRange.contains(minimumRSSI) {
            _ = body(.minimumRSSIOutOfRange(minimumRSSI))
        }
    }

    /// The Bluetooth rules' part of `forEachViolation`; false once `body` said stop.
    private func forEachBluetoothViolation(
        compiledPattern: Result<NamePattern, NamePatternError>?, _ body: (DiscoveryDescriptorError) -> Bool
    ) -> Bool {
        if bluetoothCompanyIdentifier == nil, bluetoothServiceUUID == nil {
            guard body(.missingBluetoothIdentifier) else { return false }
        }
        let hasName = bluetoothNameSubstring != nil || bluetoothNamePattern != nil
        let hasData = bluetoothManufacturerDataBlob != nil || bluetoothManufacturerDataMask != nil
            || bluetoothServiceDataBlob != nil || bluetoothServiceDataMask != nil
        if !(bluetoothCompanyIdentifier == nil && bluetoothServiceUUID == nil), !hasName, !hasData {
            guard body(.missingBluetoothCriterion) else { return false }
        }
        if bluetoothNameSubstring?.isEmpty == true {
            guard body(.emptyNameSubstring) else { return false }
        }
        if let pattern = bluetoothNamePattern {
            do throws(NamePatternError) { _ = try (compiledPattern ?? Result { () throws(NamePatternError) in try NamePattern(pattern) }).get() } catch {
                guard body(.invalidNamePattern(error)) else { return false }
            }
        }
        if let broken = Self.dataViolation(.manufacturerData, blob: bluetoothManufacturerDataBlob, mask: bluetoothManufacturerDataMask) {
            guard body(broken) else { return false }
        }
        if let broken = Self.dataViolation(.serviceData, blob: bluetoothServiceDataBlob, mask: bluetoothServiceDataMask) {
            guard body(broken) else { return false }
        }
        if bluetoothManufacturerDataBlob != nil || bluetoothManufacturerDataMask != nil, bluetoothCompanyIdentifier == nil {
            guard body(.manufacturerDataWithoutCompanyIdentifier) else { return false }
        }
        if bluetoothServiceDataBlob != nil || bluetoothServiceDataMask != nil, bluetoothServiceUUID == nil {
            guard body(.serviceDataWithoutServiceUUID) else { return false }
        }
        return true
    }

    /// The one rule a blob and its mask break, if any.
    private static func dataViolation(
        _ property: DiscoveryDescriptorError.DataProperty, blob: [UInt8]?, mask: [UInt8]?
    ) -> DiscoveryDescriptorError? {
        switch (blob, mask) {
        case (nil, nil): return nil
        case (.some, nil): return .missingMask(property)
        case (nil, .some): return .missingBlob(property)
        case (let blob?, let mask?):
            if blob.count != mask.count {
                return .blobMaskLengthMismatch(property, blobLength: blob.count, maskLength: mask.count)
            }
            return mask.isEmpty ? .emptyMask(property) : nil
        }
    }

    /// The Wi-Fi rules' part of `forEachViolation`; false once `body` said stop.
    private func forEachWiFiViolation(_ body: (DiscoveryDescriptorError) -> Bool) -> Bool {
        switch (ssid, ssidPrefix) {
        case (nil, nil): guard body(.missingSSID) else { return false }
        case (.some, .some): guard body(.ssidAndSSIDPrefixBothSet) else { return false }
        default: break
        }
        if let ssid, ssid.bytes.isEmpty {
            guard body(.emptySSID) else { return false }
        }
        if let ssidPrefix {
            if ssidPrefix.isEmpty {
                guard body(.emptySSIDPrefix) else { return false }
            }
            if ssidPrefix.count > SSID.maximumLength {
                guard body(.ssidPrefixTooLong(length: ssidPrefix.count)) else { return false }
            }
        }
        return true
    }
}
