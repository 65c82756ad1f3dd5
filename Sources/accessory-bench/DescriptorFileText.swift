import AccessoryCore

/// A workload descriptor as a `[Descriptor NAME]` section of a
/// `--descriptors` file, so the whole daemon's monitor matches the same
/// descriptors the in-process benchmarks use.
enum DescriptorFileText {
    static func section(_ d: DiscoveryDescriptor, name: String, app: String) -> String {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(2) }.joined() }
        var lines = ["[Descriptor \(name)]", "App=\(app)"]
        if let company = d.bluetoothCompanyIdentifier { lines.append("CompanyIdentifier=\(company)") }
        if let service = d.bluetoothServiceUUID { lines.append("ServiceUUID=\(service)") }
        if let substring = d.bluetoothNameSubstring {
            lines.append("NameSubstring=\(substring)")
            if d.bluetoothNameSubstringCompareOptions.contains(.caseInsensitive) { lines.append("NameCompare=case-insensitive") }
        }
        if let pattern = d.bluetoothNamePattern { lines.append("NamePattern=\(pattern)") }
        if let blob = d.bluetoothManufacturerDataBlob, let mask = d.bluetoothManufacturerDataMask {
            lines += ["ManufacturerDataBlob=\(hex(blob))", "ManufacturerDataMask=\(hex(mask))"]
        }
        if let blob = d.bluetoothServiceDataBlob, let mask = d.bluetoothServiceDataMask {
            lines += ["ServiceDataBlob=\(hex(blob))", "ServiceDataMask=\(hex(mask))"]
        }
        if d.bluetoothRange == .immediate { lines.append("Range=immediate") }
        return lines.joined(separator: "\n") + "\n"
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
