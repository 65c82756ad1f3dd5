import AccessoryCore
import TestSupport

/// A busy radio environment, roughly: most adverts come from phones and
/// laptops of a handful of companies (Apple's continuity messages above all),
/// some from beacons and sensors with service data; the apps' descriptors use
/// the same vocabulary, so buckets are hit and the full rules do run.
struct Workload {
    var rng: SplitMix64

    static let companies: [UInt16] = [0x004C, 0x004C, 0x004C, 0x0006, 0x0075, 0x00E0] + (0..<58).map { UInt16(0x0100 + $0) }
    static let services: [BluetoothUUID] = [BluetoothUUID("FE2C")!, BluetoothUUID("FCD2")!, BluetoothUUID("180F")!]
        + (0..<61).map { BluetoothUUID(uuid16: UInt16(0xFD00 + $0)) }
    static let names = ["Acme Sensor", "ACME-", "Thermo", "Band", "Buds", "TV", "Beacon", "Tag", "Lock", "Plug"]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }

    mutating func descriptor() -> DiscoveryDescriptor {
        var d = DiscoveryDescriptor()
        if chance(60) { d.bluetoothCompanyIdentifier = pick(Self.companies) } else { d.bluetoothServiceUUID = pick(Self.services) }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            d.bluetoothNameSubstring = pick(Self.names)
            d.bluetoothNameSubstringCompareOptions = chance(50) ? .caseInsensitive : []
        case 1:
            d.bluetoothNamePattern = pick(Self.names) + "*"
        default:
            let mask: [UInt8] = [0xFF, 0xF0]
            let blob = bytes(2).enumerated().map { $0.element & mask[$0.offset] }
            if d.bluetoothCompanyIdentifier != nil {
                d.bluetoothManufacturerDataBlob = blob
                d.bluetoothManufacturerDataMask = mask
            } else {
                d.bluetoothServiceDataBlob = blob
                d.bluetoothServiceDataMask = mask
            }
        }
        if chance(10) { d.bluetoothRange = .immediate }
        return d
    }

    mutating func advertisement(_ n: Int) -> Advertisement {
        var data = AdvertisingData(flags: 0x06)
        if chance(85) { data.manufacturerData[pick(Self.companies)] = bytes(Int.random(in: 2...24, using: &rng)) }
        if chance(30) { data.completeServiceUUIDs = [pick(Self.services)] }
        if chance(20) { data.serviceData[pick(Self.services)] = bytes(Int.random(in: 2...12, using: &rng)) }
        if chance(35) { data.completeLocalName = Array((pick(Self.names) + " \(n % 100)").utf8) }
        let address = BluetoothAddress(rawValue: UInt64(n) & 0xFFFF_FFFF_FFFF)!
        return Advertisement(
            device: BluetoothDeviceIdentifier(address: address, addressType: .random),
            properties: [.connectable, .scannable, .legacy], rssi: Int8.random(in: -100 ... -30, using: &rng), data: data)
    }
}
