/// One netlink attribute (struct nlattr): a TLV whose 16-bit length counts its
/// own 4-byte header, whose payload is padded to a multiple of 4 (NLA_ALIGNTO),
/// and whose 16-bit type carries two flags in its top bits.
public struct NetlinkAttribute: Hashable, Sendable {
    /// NLA_F_NESTED: the payload is itself a run of attributes.
    public static let nestedFlag: UInt16 = 1 << 15
    /// NLA_F_NET_BYTEORDER: integers in the payload are big-endian.
    public static let networkByteOrderFlag: UInt16 = 1 << 14
    /// NLA_TYPE_MASK: what is left of the type field without the flags.
    public static let typeMask: UInt16 = ~(nestedFlag | networkByteOrderFlag)
    public static let headerLength = 4
    public static let alignment = 4

    /// The type with NLA_F_NESTED and NLA_F_NET_BYTEORDER masked off.
    public let type: UInt16
    public let isNested: Bool
    public let isNetworkByteOrder: Bool
    /// The payload without header or padding.
    public let payload: ArraySlice<UInt8>

    public init(
        type: UInt16, payload: ArraySlice<UInt8>, isNested: Bool = false,
        isNetworkByteOrder: Bool = false
    ) {
        self.type = type & Self.typeMask
        self.payload = payload
        self.isNested = isNested
        self.isNetworkByteOrder = isNetworkByteOrder
    }

    /// Bytes from the start of one attribute to the start of the next.
    static func alignedLength(_ length: Int) -> Int {
        (length + alignment - 1) / alignment * alignment
    }

    // MARK: Typed payloads. Each checks the exact size, as the kernel's nla_policy does.

    /// The payload as an integer of exactly `T`'s width (signed types by two's complement).
    public func integer<T: FixedWidthInteger>(as type: T.Type) throws(NetlinkDecodingError) -> T {
        T(truncatingIfNeeded: try unsigned(byteCount: T.bitWidth / 8))
    }

    public func uint8() throws(NetlinkDecodingError) -> UInt8 { try integer(as: UInt8.self) }
    public func uint16() throws(NetlinkDecodingError) -> UInt16 { try integer(as: UInt16.self) }
    public func uint32() throws(NetlinkDecodingError) -> UInt32 { try integer(as: UInt32.self) }
    public func int32() throws(NetlinkDecodingError) -> Int32 { try integer(as: Int32.self) }
    public func uint64() throws(NetlinkDecodingError) -> UInt64 { try integer(as: UInt64.self) }

    /// The payload as the attributes nested in it.
    public func nested() throws(NetlinkDecodingError) -> NetlinkAttributes {
        try NetlinkAttributes(parsing: payload)
    }

    private func unsigned(byteCount: Int) throws(NetlinkDecodingError) -> UInt64 {
        guard payload.count == byteCount else {
            throw .attributePayloadSize(type: type, expected: byteCount, actual: payload.count)
        }
        let value: UInt64 = WiFiByteReader.littleEndian(payload)
        if isNetworkByteOrder {
            // Big-endian on the wire: reverse the bytes we composed little-endian.
            return value.byteSwapped >> (64 - 8 * byteCount)
        }
        #if _endian(big)
        return value.byteSwapped >> (64 - 8 * byteCount)
        #else
        return value
        #endif
    }
}
