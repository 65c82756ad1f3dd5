import AccessoryPlatform

/// `(uss)`, an `UpdatePicker` entry: candidate number, display name,
/// product image path (empty for none).
public struct WireShownCandidate: WireRecord, Hashable, Sendable {
    public static let type = BusType.structure(.uint32, .string, .string)

    public var candidate: UInt32
    public var name: String
    public var productImage: String

    public init(candidate: UInt32, name: String, productImage: String) {
        self.candidate = candidate
        self.name = name
        self.productImage = productImage
    }

    public init(from reader: some ArgumentReader) throws(BusError) {
        candidate = try reader.uint32()
        name = try reader.string("a candidate's display name")
        productImage = try reader.string("a product image path")
    }

    public func appendFields(to message: BusReply) {
        message.append(candidate).append(name).append(productImage)
    }
}
