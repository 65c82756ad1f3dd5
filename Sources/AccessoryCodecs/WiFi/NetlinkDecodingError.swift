/// Why netlink bytes could not be decoded. Offsets count from the start of the
/// buffer handed to the parser that failed.
public enum NetlinkDecodingError: Error, Hashable, Sendable {
    /// Fewer than the 4 bytes of an nlattr header remain at `offset`.
    case attributeHeaderTruncated(offset: Int, available: Int)
    /// The attribute's length field is below the 4 bytes its own header takes.
    case attributeLengthTooShort(offset: Int, length: UInt16)
    /// The attribute's length field runs past the end of the buffer.
    case attributeLengthPastEnd(offset: Int, length: UInt16, available: Int)
    /// An attribute's payload is not the size its type needs (a u32 that is not 4 bytes…).
    case attributePayloadSize(type: UInt16, expected: Int, actual: Int)
    /// Fewer than the 16 bytes of an nlmsghdr remain at `offset`.
    case messageHeaderTruncated(offset: Int, available: Int)
    /// The message's length field is below the 16 bytes of its own header.
    case messageLengthTooShort(offset: Int, length: UInt32)
    /// The message's length field runs past the end of the buffer.
    case messageLengthPastEnd(offset: Int, length: UInt32, available: Int)
    /// The message is too short for the 4-byte generic netlink header.
    case genericHeaderTruncated(available: Int)
    /// An NLMSG_ERROR message too short for its error code.
    case errorMessageTruncated(available: Int)
    /// The kernel answered with NLMSG_ERROR and this (negative) errno.
    case kernelError(errno: Int32)
}

/// Why netlink bytes could not be built.
public enum NetlinkEncodingError: Error, Hashable, Sendable {
    /// An nlattr's length is a u16: the payload plus header must fit in 65535 bytes.
    case attributeTooLong(type: UInt16, payloadLength: Int)
    /// The type uses the bits reserved for NLA_F_NESTED / NLA_F_NET_BYTEORDER.
    case attributeTypeOutOfRange(UInt16)
    /// An nlmsghdr's length is a u32.
    case messageTooLong(length: Int)
}
