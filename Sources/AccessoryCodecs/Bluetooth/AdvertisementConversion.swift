import AccessoryCore

/// Why a decoded report could not become an `Advertisement`. Damaged AD
/// structures are not a reason: the advertisement keeps what could be read.
public enum AdvertisementConversionError: Error, Hashable, Sendable {
    /// Anonymous extended advertising carries no address to identify the device by.
    case anonymousAdvertiser
    /// An extended report whose data is not complete: reassemble it first.
    case incompleteData(LEExtendedAdvertisingReport.DataStatus)
}

extension Advertisement {
    /// The advertisement a legacy report describes. Properties always include
    /// `.legacy`; a scan response has `.scanResponse`, ready for `merging(_:)`.
    /// Its data is what `AdvertisingDataParser.read` kept; `damage` gets what it left out.
    public init(_ report: LEAdvertisingReport, controllerIndex: UInt16? = nil, damage: inout [ADParsingError]) {
        let reading = AdvertisingDataParser.read(report.data)
        damage += reading.damage
        self.init(
            device: report.device,
            properties: report.properties,
            rssi: report.rssi,
            primaryPHY: .le1M,
            data: reading.data,
            rawAdvertisingData: report.data,
            controllerIndex: controllerIndex)
    }

    /// The radio facts of the advertisement a legacy report describes, as
    /// `init(_:controllerIndex:damage:)` sets them.
    public static func facts(
        of report: BorrowedLEAdvertisingReport, controllerIndex: UInt16? = nil
    ) -> AdvertisingReportFacts {
        AdvertisingReportFacts(
            device: report.device, properties: LEAdvertisingReport.properties(of: report.eventType), rssi: report.rssi,
            primaryPHY: .le1M, controllerIndex: controllerIndex)
    }

    /// The same, for callers that do not count damage.
    public init(_ report: LEAdvertisingReport, controllerIndex: UInt16? = nil) {
        var damage: [ADParsingError] = []
        self.init(report, controllerIndex: controllerIndex, damage: &damage)
    }

    /// The advertisement a complete (or reassembled) extended report describes.
    public init(
        _ report: LEExtendedAdvertisingReport, controllerIndex: UInt16? = nil, damage: inout [ADParsingError]
    ) throws(AdvertisementConversionError) {
        guard report.dataStatus == .complete else { throw .incompleteData(report.dataStatus) }
        guard let device = report.device else { throw .anonymousAdvertiser }
        let reading = AdvertisingDataParser.read(report.data)
        damage += reading.damage
        self.init(
            device: device,
            properties: report.properties,
            rssi: report.rssi,
            txPower: report.txPower,
            primaryPHY: report.primaryPHY,
            secondaryPHY: report.secondaryPHY,
            data: reading.data,
            rawAdvertisingData: report.data,
            controllerIndex: controllerIndex)
    }

    /// The same, for callers that do not count damage.
    public init(_ report: LEExtendedAdvertisingReport, controllerIndex: UInt16? = nil) throws(AdvertisementConversionError) {
        var damage: [ADParsingError] = []
        try self.init(report, controllerIndex: controllerIndex, damage: &damage)
    }
}
