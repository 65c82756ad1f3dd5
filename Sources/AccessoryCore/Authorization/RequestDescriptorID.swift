/// Request descriptors live in the matching index beside the
/// administrator's (`--descriptors`, numbered from 1) at ids with bit 63
/// set, the request's number in bits 16–47 and the item's index below, so a
/// match names its request and item without a table.
public enum RequestDescriptorID {
    static let base: UInt64 = 1 << 63

    public static func make(request: UInt32, item: Int) -> DescriptorID {
        DescriptorID(base | UInt64(request) << 16 | UInt64(UInt16(truncatingIfNeeded: item)))
    }

    /// The request a match belongs to, nil for an administrator's descriptor.
    public static func request(of id: DescriptorID) -> UInt32? {
        guard id.rawValue & base != 0 else { return nil }
        return UInt32(truncatingIfNeeded: (id.rawValue & ~base) >> 16)
    }

    public static func item(of id: DescriptorID) -> Int { Int(id.rawValue & 0xFFFF) }
}
