import AccessoryCore

/// A descriptor file for `accessoryd --monitor --descriptors FILE`. Each
/// descriptor read survives being written as fields and read back.
let descriptorFileTarget = FuzzTarget(name: "descriptor-file") { bytes in
    guard let entries = try? DescriptorFile.parse(bytes, source: "fuzz.descriptors") else { return }
    for entry in entries {
        let fields = DescriptorFields.fields(of: entry.descriptor)
        let again = try? DescriptorFields.descriptor(from: fields)
        expect(again == entry.descriptor, "a descriptor does not survive its fields: \(fields)")
        _ = entry.descriptor.violations
    }
}
