/// A parsed run of netlink attributes: all of them in order, and a lookup by type.
///
/// When a type repeats, the lookup answers with the last one, as the kernel's and
/// libnl's nla_parse do; `all` keeps every occurrence (nl80211 lists such as scan
/// frequencies repeat a type on purpose).
public struct NetlinkAttributes: Hashable, Sendable {
    public let all: [NetlinkAttribute]
    private let indexByType: [UInt16: Int]

    public init(parsing bytes: ArraySlice<UInt8>) throws(NetlinkDecodingError) {
        var reader = NetlinkAttributeReader(bytes)
        var attributes: [NetlinkAttribute] = []
        var index: [UInt16: Int] = [:]
        while let attribute = try reader.next() {
            index[attribute.type] = attributes.count
            attributes.append(attribute)
        }
        all = attributes
        indexByType = index
    }

    public init(parsing bytes: [UInt8]) throws(NetlinkDecodingError) {
        try self.init(parsing: bytes[...])
    }

    public subscript(type: UInt16) -> NetlinkAttribute? {
        indexByType[type].map { all[$0] }
    }

    public var types: [UInt16] { all.map(\.type) }
}
