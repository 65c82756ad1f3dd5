/// The fields an RSN element and the WPA vendor element share, in order.
/// Each field after the version is optional at the end of the element: the
/// element may stop after any whole field and the standard's defaults apply
/// (IEEE 802.11-2020 §9.4.2.24.1), but stopping inside a field is malformed.
public enum SecurityElementField: String, Hashable, Sendable {
    case version, groupCipher, pairwiseCount, pairwiseSuites, akmCount, akmSuites
    case capabilities, pmkidCount, pmkids, groupManagementCipher
}

/// The body ended inside `field`; RSN and WPA parsers wrap it in their own error.
struct SecurityElementTruncation: Error {
    let field: SecurityElementField
}

/// Reads the shared fields of RSN and WPA elements. Each `optional…` read returns
/// nil when the body has ended before the field (absent: defaults apply).
struct SecurityElementFieldReader {
    private var reader: WiFiByteReader

    init(_ body: ArraySlice<UInt8>) { reader = WiFiByteReader(body) }

    mutating func version() throws(SecurityElementTruncation) -> UInt16 {
        guard let version = reader.readUInt16LittleEndian() else { throw .init(field: .version) }
        return version
    }

    mutating func optionalSuite(
        _ field: SecurityElementField
    ) throws(SecurityElementTruncation) -> SuiteSelector? {
        if reader.isAtEnd { return nil }
        guard let octets = reader.take(4) else { throw .init(field: field) }
        return SuiteSelector(octets: octets)
    }

    /// A u16 count then that many 4-byte suites.
    mutating func optionalSuiteList(
        count countField: SecurityElementField, suites suitesField: SecurityElementField
    ) throws(SecurityElementTruncation) -> [SuiteSelector]? {
        guard let octets = try optionalCountedList(count: countField, items: suitesField, width: 4)
        else { return nil }
        return chunks(octets, width: 4).map(SuiteSelector.init(octets:))
    }

    mutating func optionalUInt16(
        _ field: SecurityElementField
    ) throws(SecurityElementTruncation) -> UInt16? {
        if reader.isAtEnd { return nil }
        guard let value = reader.readUInt16LittleEndian() else { throw .init(field: field) }
        return value
    }

    /// A u16 count then that many 16-byte PMKIDs.
    mutating func optionalPMKIDs() throws(SecurityElementTruncation) -> [[UInt8]]? {
        guard let octets = try optionalCountedList(count: .pmkidCount, items: .pmkids, width: 16)
        else { return nil }
        return chunks(octets, width: 16).map { Array($0) }
    }

    private mutating func optionalCountedList(
        count countField: SecurityElementField, items itemsField: SecurityElementField, width: Int
    ) throws(SecurityElementTruncation) -> ArraySlice<UInt8>? {
        if reader.isAtEnd { return nil }
        guard let count = reader.readUInt16LittleEndian() else { throw .init(field: countField) }
        // count ≤ 65535 and width ≤ 16: the product cannot overflow Int.
        guard let octets = reader.take(Int(count) * width) else { throw .init(field: itemsField) }
        return octets
    }

    private func chunks(_ octets: ArraySlice<UInt8>, width: Int) -> [ArraySlice<UInt8>] {
        stride(from: octets.startIndex, to: octets.endIndex, by: width).map {
            octets[$0..<$0 + width]
        }
    }
}
