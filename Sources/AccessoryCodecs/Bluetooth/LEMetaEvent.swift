import AccessoryATT
/// An LE Meta event (0x3E): one event code for every LE subevent
/// (Core Spec Vol 4 Part E §7.7.65). The agent types the advertising reports.
public enum LEMetaEvent: Hashable, Sendable {
    case advertisingReports([LEAdvertisingReport])
    case extendedAdvertisingReports([LEExtendedAdvertisingReport])
    /// Any other subevent, with the parameters after the subevent code.
    case other(subevent: UInt8, parameters: [UInt8])

    public static let advertisingReportSubevent: UInt8 = 0x02
    public static let extendedAdvertisingReportSubevent: UInt8 = 0x0D

    static func decode(_ reader: inout BluetoothByteReader) throws(HCIDecodingError) -> LEMetaEvent {
        guard let subevent = reader.readUInt8() else { throw .emptyLEMetaEvent }
        switch subevent {
        case advertisingReportSubevent:
            return .advertisingReports(try LEAdvertisingReport.decodeReports(&reader))
        case extendedAdvertisingReportSubevent:
            return .extendedAdvertisingReports(try LEExtendedAdvertisingReport.decodeReports(&reader))
        default:
            return .other(subevent: subevent, parameters: reader.readRemaining())
        }
    }
}
