@testable import AccessoryCore

/// Hand-built test inputs (models, not bytes): the codecs' tests own the captured bytes.
enum Build {
    static func address(_ n: UInt64) -> BluetoothAddress { BluetoothAddress(rawValue: n & 0xFFFF_FFFF_FFFF)! }

    static func device(_ n: UInt64, type: BluetoothAddressType = .random) -> BluetoothDeviceIdentifier {
        BluetoothDeviceIdentifier(address: address(n), addressType: type)
    }

    /// Device 1's advertisement.
    static func advertisement(
        rssi: Int8? = -60, properties: AdvertisingProperties = [.connectable, .scannable, .legacy], _ data: AdvertisingData
    ) -> Advertisement {
        advertisement(1, rssi: rssi, properties: properties, data)
    }

    static func advertisement(
        _ n: UInt64, rssi: Int8? = -60, properties: AdvertisingProperties = [.connectable, .scannable, .legacy],
        _ data: AdvertisingData
    ) -> Advertisement {
        Advertisement(device: device(n), properties: properties, rssi: rssi, data: data)
    }

    static func network(_ ssid: [UInt8], bssid: UInt64 = 0x0200_0000_0001, signal: Int? = -55) -> WiFiNetwork {
        WiFiNetwork(bssid: BSSID(rawValue: bssid)!, ssid: SSID(bytes: ssid)!, frequencyMHz: 2437, signalDBm: signal)
    }

    static func uuid(_ text: String) -> BluetoothUUID { BluetoothUUID(text)! }

    static func name(_ text: String) -> [UInt8] { Array(text.utf8) }
}
