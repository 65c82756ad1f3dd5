/// A blob and a mask of equal length, matched the way AccessorySetupKit and
/// Android's ScanFilter do: the data heard matches when its first
/// `mask.count` bytes, ANDed with the mask, equal the blob. Data shorter than
/// the mask cannot match; bytes beyond the mask are ignored.
public struct MaskedData: Hashable, Sendable {
    public let blob: [UInt8]
    public let mask: [UInt8]

    /// Only `DiscoveryDescriptor` validation builds these, after checking the lengths.
    init(blob: [UInt8], mask: [UInt8]) {
        self.blob = blob
        self.mask = mask
    }

    public func matches(_ data: [UInt8]) -> Bool {
        guard data.count >= mask.count else { return false }
        for i in mask.indices where data[i] & mask[i] != blob[i] { return false }
        return true
    }
}
