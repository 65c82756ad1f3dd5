/// The radio facts of one report, without its AD structures: all that
/// changes when a device re-sends the payload it sent last, so the registry
/// can note it without parsing or matching anything again.
public struct AdvertisingReportFacts: Hashable, Sendable {
    public var device: BluetoothDeviceIdentifier
    public var properties: AdvertisingProperties
    /// In dBm; nil when the controller said 127 ("not available").
    public var rssi: Int8?
    public var txPower: Int8?
    public var primaryPHY: BluetoothPHY?
    public var secondaryPHY: BluetoothPHY?
    public var controllerIndex: UInt16?

    public init(
        device: BluetoothDeviceIdentifier, properties: AdvertisingProperties, rssi: Int8?, txPower: Int8? = nil,
        primaryPHY: BluetoothPHY? = nil, secondaryPHY: BluetoothPHY? = nil, controllerIndex: UInt16? = nil
    ) {
        self.device = device
        self.properties = properties
        self.rssi = rssi
        self.txPower = txPower
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.controllerIndex = controllerIndex
    }

    public var isScanResponse: Bool { properties.contains(.scanResponse) }
}
