import AccessoryCore

/// The key/value pairs a descriptor arrives as over D-Bus (`a{ss}`) and in
/// the grant store, without the bus: one `key=value` per line (a line
/// without `=` is a key with an empty value). Keys may repeat.
let descriptorFieldsTarget = FuzzTarget(name: "descriptor-fields") { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    let pairs = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
    }
    guard let descriptor = try? DescriptorFields.descriptor(from: pairs) else { return }
    let fields = DescriptorFields.fields(of: descriptor)
    expect((try? DescriptorFields.descriptor(from: fields)) == descriptor, "a descriptor does not survive its fields: \(fields)")
    _ = descriptor.violations
}
