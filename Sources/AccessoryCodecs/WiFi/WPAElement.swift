/// The pre-standard WPA ("WPA1") element: vendor-specific element 221 with OUI
/// 00-50-F2 and type 1, then the same layout as RSN up to the capabilities.
public struct WPAElement: Hashable, Sendable {
    /// The four octets that open the vendor element's body.
    public static let header: [UInt8] = [0x00, 0x50, 0xF2, 0x01]

    public var version: UInt16
    /// TKIP when the element stops before it (the WPA default).
    public var groupCipher: SuiteSelector
    /// [TKIP] when the element stops before the count.
    public var pairwiseCiphers: [SuiteSelector]
    /// [802.1X] when the element stops before the count.
    public var akmSuites: [SuiteSelector]
    public var capabilities: UInt16?

    /// True when a vendor element's body is a WPA element.
    public static func matches(vendorBody body: ArraySlice<UInt8>) -> Bool {
        body.starts(with: header)
    }

    /// Parses a vendor element's body, the OUI and type included.
    public init(parsingVendorBody body: ArraySlice<UInt8>) throws(IEParsingError) {
        guard Self.matches(vendorBody: body) else {
            throw .unexpectedVendorHeader(expected: Self.header, actual: Array(body.prefix(4)))
        }
        var fields = SecurityElementFieldReader(body.dropFirst(Self.header.count))
        do throws(SecurityElementTruncation) {
            version = try fields.version()
        } catch {
            throw .wpaTruncated(field: error.field)
        }
        guard version == 1 else { throw .wpaUnsupportedVersion(version) }
        do throws(SecurityElementTruncation) {
            groupCipher = try fields.optionalSuite(.groupCipher) ?? .wpaTKIP
            pairwiseCiphers =
                try fields.optionalSuiteList(count: .pairwiseCount, suites: .pairwiseSuites)
                ?? [.wpaTKIP]
            akmSuites =
                try fields.optionalSuiteList(count: .akmCount, suites: .akmSuites) ?? [.wpaAKM8021X]
            capabilities = try fields.optionalUInt16(.capabilities)
        } catch {
            throw .wpaTruncated(field: error.field)
        }
    }
}
