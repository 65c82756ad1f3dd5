import AccessoryCodecs
import AccessoryCore
import Foundation
import Testing

/// Loads the Bluetooth fixtures (Fixtures/bluetooth, see its README).
enum BluetoothFixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let base = try #require(Bundle.module.resourceURL)
        let url = base.appendingPathComponent("Fixtures/bluetooth").appendingPathComponent(name)
        return [UInt8](try Data(contentsOf: url))
    }

    /// Every record of a lab capture.
    static func records(_ name: String) throws -> [BtsnoopRecord] {
        try BtsnoopReader.records(in: bytes(name))
    }

    static let passiveScan = "lab-passive-scan.btsnoop"
    static let activeScanResponse = "lab-active-scan-response.btsnoop"
    static let extendedScan = "lab-extended-scan.btsnoop"

    /// The lab's emulated controllers: hci0 scans, hci1 advertises.
    static let scannerIndex: UInt16 = 0
    static let advertiserIndex: UInt16 = 1
    /// btvirt gives hci1 this public address.
    static let advertiser = BluetoothDeviceIdentifier(address: BluetoothAddress("00:AA:01:01:00:01")!, addressType: .public)
}

/// Hex in the form btmon and the specification print it, spaces allowed.
func bluetoothHex(_ text: String) -> [UInt8] {
    let digits = text.filter { !$0.isWhitespace }
    guard let bytes = bytes(fromHex: digits) else {
        Issue.record("bad hex in test table: \(text)")
        return []
    }
    return bytes
}
