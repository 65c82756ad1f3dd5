import AccessoryCore

/// Why a decoded report could not become an `Advertisement`.
public enum AdvertisementConversionError: Error, Hashable, Sendable {
    case malformedAdvertisingData(ADParsingError)
    /// Anonymous extended advertising carries no address to identify the device by.
    case anonymousAdvertiser
    /// An extended report whose data is not complete: reassemble it first.
    case incompleteData(LEExtendedAdvertisingReport.DataStatus)
}

extension Advertisement {
    /// The advertisement a legacy report describes. Properties always include
    /// `.legacy`; a scan response has `.scanResponse`, ready for `merging(_:)`.
    public init(_ report: LEAdvertisingReport, controllerIndex: UInt16? = nil) throws(AdvertisementConversionError) {
        let data: AdvertisingData
        do { data = try AdvertisingDataParser.parse(report.data) } catch { throw .malformedAdvertisingData(error) }
        self.init(
            device: report.device,
            properties: report.properties,
            rssi: report.rssi,
            primaryPHY: .le1M,
            data: data,
            rawAdvertisingData: report.data,
            controllerIndex: controllerIndex)
    }

    /// The advertisement a complete (or reassembled) extended report describes.
    public init(_ report: LEExtendedAdvertisingReport, controllerIndex: UInt16? = nil) throws(AdvertisementConversionError) {
        guard report.dataStatus == .complete else { throw .incompleteData(report.dataStatus) }
        guard let device = report.device else { throw .anonymousAdvertiser }
        let data: AdvertisingData
        do { data = try AdvertisingDataParser.parse(report.data) } catch { throw .malformedAdvertisingData(error) }
        self.init(
            device: device,
            properties: report.properties,
            rssi: report.rssi,
            txPower: report.txPower,
            primaryPHY: report.primaryPHY,
            secondaryPHY: report.secondaryPHY,
            data: data,
            rawAdvertisingData: report.data,
            controllerIndex: controllerIndex)
    }
}
