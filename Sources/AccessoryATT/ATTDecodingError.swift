/// Why bytes are not an ATT PDU this codec knows. Each case names the PDU and
/// what about it was wrong, so a peer's malformed PDU can be answered or logged.
public enum ATTDecodingError: Error, Hashable, Sendable {
    /// Zero bytes: not even an opcode.
    case emptyPDU
    /// An opcode this codec does not speak (its value as received).
    case unknownOpcode(UInt8)
    /// A fixed-length PDU (e.g. Exchange MTU, Read Request) of the wrong length.
    case wrongLength(ATTOpcode, expected: Int, actual: Int)
    /// A variable-length PDU shorter than its fixed fields.
    case tooShort(ATTOpcode, minimum: Int, actual: Int)
    /// A request's attribute type is neither a 16-bit nor a 128-bit UUID.
    case invalidUUIDLength(ATTOpcode, length: Int)
    /// Find Information Response with a format other than 1 (16-bit) or 2 (128-bit).
    case unknownInformationFormat(UInt8)
    /// A list response (Find Information, Read By Type, Read By Group Type) with no entry.
    case noEntries(ATTOpcode)
    /// A list response's length octet is shorter than an entry's fixed fields.
    case entryLengthTooShort(ATTOpcode, length: Int)
    /// A list response's data is not a whole number of entries.
    case partialEntry(ATTOpcode, entryLength: Int, dataLength: Int)
}
