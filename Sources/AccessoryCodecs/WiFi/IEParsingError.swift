/// Why a run of information elements could not be parsed. Offsets count from the
/// start of the buffer handed to the parser.
public enum IEParsingError: Error, Hashable, Sendable {
    /// A single byte is left where an element's two-byte header should be.
    case elementHeaderTruncated(offset: Int)
    /// The element's length runs past the end of the buffer (`available` bytes were left).
    case elementLengthPastEnd(id: UInt8, offset: Int, length: UInt8, available: Int)
    /// An SSID element longer than 32 bytes.
    case ssidTooLong(length: Int)
    /// The DS Parameter Set must be exactly one byte (the channel).
    case dsParameterSetLength(Int)
    /// An HT Operation element shorter than its fixed 22 bytes.
    case htOperationTooShort(length: Int)
    /// A VHT Operation element shorter than its fixed 5 bytes.
    case vhtOperationTooShort(length: Int)
    /// An HE Operation element that ends inside the named field.
    case heOperationTruncated(field: HEOperation.Field)
    /// An RSN element that ends inside the named field.
    case rsnTruncated(field: SecurityElementField)
    /// An RSN element with a version other than 1.
    case rsnUnsupportedVersion(UInt16)
    /// A WPA (vendor 00-50-F2 type 1) element that ends inside the named field.
    case wpaTruncated(field: SecurityElementField)
    /// A WPA element with a version other than 1.
    case wpaUnsupportedVersion(UInt16)
    /// A vendor element handed to the WPA or OWE Transition parser does not open
    /// with that element's OUI and type.
    case unexpectedVendorHeader(expected: [UInt8], actual: [UInt8])
    /// An OWE Transition Mode element that ends inside the named field.
    case oweTransitionTruncated(field: OWETransitionElement.Field)
    /// An OWE Transition Mode element whose SSID is longer than 32 bytes.
    case oweTransitionSSIDTooLong(length: Int)
}
