/// Return parameters of Read Local Version Information (0x1001), after the status.
public struct HCILocalVersionInformation: Hashable, Sendable {
    /// Core Specification version (Assigned Numbers): 0x09 is 5.0, 0x0D is 5.4.
    public var hciVersion: UInt8
    public var hciRevision: UInt16
    public var lmpVersion: UInt8
    /// The controller maker's company identifier.
    public var manufacturer: UInt16
    public var lmpSubversion: UInt16

    public init(hciVersion: UInt8, hciRevision: UInt16, lmpVersion: UInt8, manufacturer: UInt16, lmpSubversion: UInt16) {
        self.hciVersion = hciVersion
        self.hciRevision = hciRevision
        self.lmpVersion = lmpVersion
        self.manufacturer = manufacturer
        self.lmpSubversion = lmpSubversion
    }

    /// Octets after the status.
    static let encodedLength = 8
}
