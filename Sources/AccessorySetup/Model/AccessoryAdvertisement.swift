import AccessoryCore

/// A Bluetooth LE accessory's latest advertising data (`Accessory1.Advertisement`),
/// sent by the agent when the data changes: how an app reads a sensor that
/// publishes its values in its advertisements, without connecting to it.
public struct AccessoryAdvertisement: Hashable, Sendable, CustomStringConvertible {
    public var accessory: AccessoryID
    /// The signal strength (dBm) it was heard with; nil when the radio gave none.
    public var rssi: Int?
    /// AD structures, advertisement and scan response merged.
    public var data: [UInt8]

    public init(accessory: AccessoryID, rssi: Int?, data: [UInt8]) {
        self.accessory = accessory
        self.rssi = rssi
        self.data = data
    }

    public var description: String {
        "\(accessory) rssi=\(rssi.map(String.init) ?? "none") data=\(hexString(data))"
    }
}
