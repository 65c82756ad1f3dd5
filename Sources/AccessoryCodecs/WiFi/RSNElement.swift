/// The RSN element (id 48, IEEE 802.11-2020 §9.4.2.24): which ciphers and key
/// management (AKM) suites a WPA2/WPA3 network offers.
public struct RSNElement: Hashable, Sendable {
    public var version: UInt16
    /// CCMP when the element stops before it.
    public var groupCipher: SuiteSelector
    /// [CCMP] when the element stops before the count.
    public var pairwiseCiphers: [SuiteSelector]
    /// [802.1X] when the element stops before the count.
    public var akmSuites: [SuiteSelector]
    public var capabilities: Capabilities
    public var pmkids: [[UInt8]]
    public var groupManagementCipher: SuiteSelector?

    /// RSN Capabilities (§9.4.2.24.4); only the bits a scanner cares about are named.
    public struct Capabilities: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Management frame protection required (MFPR).
        public static let managementFrameProtectionRequired = Capabilities(rawValue: 1 << 6)
        /// Management frame protection capable (MFPC).
        public static let managementFrameProtectionCapable = Capabilities(rawValue: 1 << 7)
    }

    public init(parsing body: ArraySlice<UInt8>) throws(IEParsingError) {
        var fields = SecurityElementFieldReader(body)
        do throws(SecurityElementTruncation) {
            version = try fields.version()
        } catch {
            throw .rsnTruncated(field: error.field)
        }
        guard version == 1 else { throw .rsnUnsupportedVersion(version) }
        do throws(SecurityElementTruncation) {
            groupCipher = try fields.optionalSuite(.groupCipher) ?? .ccmp
            pairwiseCiphers =
                try fields.optionalSuiteList(count: .pairwiseCount, suites: .pairwiseSuites) ?? [.ccmp]
            akmSuites = try fields.optionalSuiteList(count: .akmCount, suites: .akmSuites) ?? [.akm8021X]
            capabilities = Capabilities(rawValue: try fields.optionalUInt16(.capabilities) ?? 0)
            pmkids = try fields.optionalPMKIDs() ?? []
            groupManagementCipher = try fields.optionalSuite(.groupManagementCipher)
            // Later amendments may append fields; they are not ours to reject.
        } catch {
            throw .rsnTruncated(field: error.field)
        }
    }
}
