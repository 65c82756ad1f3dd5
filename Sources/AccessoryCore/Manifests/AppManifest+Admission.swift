extension AppManifest {
    /// Every value `descriptor` uses that this manifest does not declare.
    public func violations(of descriptor: DiscoveryDescriptor) -> [ManifestViolation] {
        var found: [ManifestViolation] = []
        if descriptor.describesBluetooth {
            if !supports.contains(.bluetooth) { found.append(.bluetoothNotSupported) }
            if let uuid = descriptor.bluetoothServiceUUID, !bluetoothServiceUUIDs.contains(uuid) {
                found.append(.undeclaredServiceUUID(uuid))
            }
            if let company = descriptor.bluetoothCompanyIdentifier, !bluetoothCompanyIdentifiers.contains(company) {
                found.append(.undeclaredCompanyIdentifier(company))
            }
            for name in [descriptor.bluetoothNameSubstring, descriptor.bluetoothNamePattern].compactMap({ $0 })
            where !bluetoothNames.contains(name) {
                found.append(.undeclaredName(name))
            }
        }
        // Pairing writes keys on the gateway: only for apps that said they need it.
        if descriptor.supportedOptions.contains(.bluetoothPairingLE), !bluetoothPairing {
            found.append(.undeclaredPairing)
        }
        if descriptor.describesWiFi {
            if !supports.contains(.wifi) { found.append(.wifiNotSupported) }
            if let ssid = descriptor.ssid, !ssids.contains(ssid), !hasDeclaredPrefix(of: ssid.bytes) {
                found.append(.undeclaredSSID(ssid))
            }
            // A longer prefix only narrows what a declared one allows.
            if let prefix = descriptor.ssidPrefix, !hasDeclaredPrefix(of: prefix) {
                found.append(.undeclaredSSIDPrefix(prefix))
            }
        }
        return found
    }

    /// Accepts `descriptor` for this app, or throws `invalidRequest` naming the
    /// first broken descriptor rule or the first undeclared value.
    public func admit(_ descriptor: DiscoveryDescriptor) throws(AccessorySetupError) {
        if let rule = descriptor.violations.first { throw .invalidRequest(rule) }
        if let violation = violations(of: descriptor).first { throw .invalidRequest(violation) }
    }

    /// The image a display item shows: the one it names, which must be one of
    /// this manifest's loaded `ProductImage=` files, or else the first of them.
    public func productImage(for requested: String?) throws(AccessorySetupError) -> String? {
        guard let requested, !requested.isEmpty else { return productImages.first }
        guard productImages.contains(requested) else { throw .invalidRequest(ManifestViolation.undeclaredProductImage(requested)) }
        return requested
    }

    private func hasDeclaredPrefix(of bytes: [UInt8]) -> Bool {
        ssidPrefixes.contains { !$0.isEmpty && bytes.starts(with: $0) }
    }
}
