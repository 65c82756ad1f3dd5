@testable import AccessoryCore
import TestSupport

/// Random valid descriptors and random things heard, drawn from a small
/// vocabulary so that matches are frequent and every rule gets exercised.
struct RandomInputs {
    var rng: SplitMix64

    static let companies: [UInt16] = [0x004C, 0x0059, 0x0075, 0x00E0, 0x0006]
    static let services = ["180F", "FCD2", "FE2C", "181A", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"].map { BluetoothUUID($0)! }
    static let names = ["Acme", "Acme Sensor", "acme", "ACME-01", "Thermo", "Sensor", "Ac"]
    static let patterns = ["Acme*", "*Sensor", "ACME-[0-9][0-9]", "?cme*", "[!A]*"]
    static let bytes: [UInt8] = [0x00, 0x01, 0x10, 0x11, 0xFF]
    static let masks: [UInt8] = [0x00, 0x0F, 0xF0, 0xFF]
    static let ssids = ["ACME-1", "ACME-22", "Acme Setup", "Home", "ACME"].map { Array($0.utf8) } + [[0x41, 0xFF, 0x00]]
    static let prefixes = ["A", "AC", "ACME-", "Acme", "H"].map { Array($0.utf8) } + [[0x41, 0xFF]]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }

    mutating func blobAndMask() -> ([UInt8], [UInt8]) {
        let length = Int.random(in: 1...3, using: &rng)
        let mask = (0..<length).map { _ in pick(Self.masks) }
        let blob = mask.map { pick(Self.bytes) & $0 }
        // Sometimes a blob bit outside the mask, which can never match: fine, it must not match by either path.
        return (chance(10) ? blob.map { $0 | 0x02 } : blob, mask)
    }

    mutating func descriptor() -> DiscoveryDescriptor {
        if chance(25) {
            var d = DiscoveryDescriptor()
            if chance(50) { d.ssid = SSID(bytes: pick(Self.ssids)) } else { d.ssidPrefix = pick(Self.prefixes) }
            if chance(20) { d.bssid = BSSIDFilter(bssid: BSSID(rawValue: 0x0200_0000_0000)!, mask: BSSID(rawValue: 0xFFFF_FFFF_FF00)!) }
            if chance(20) { d.minimumRSSI = Int.random(in: -80 ... -40, using: &rng) }
            return d
        }
        var d = DiscoveryDescriptor()
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: d.bluetoothCompanyIdentifier = pick(Self.companies)
        case 1: d.bluetoothServiceUUID = pick(Self.services)
        default:
            d.bluetoothCompanyIdentifier = pick(Self.companies)
            d.bluetoothServiceUUID = pick(Self.services)
        }
        var criteria = 0
        if chance(50) {
            d.bluetoothNameSubstring = pick(Self.names)
            d.bluetoothNameSubstringCompareOptions = NameCompareOptions(rawValue: UInt8.random(in: 0...3, using: &rng))
            criteria += 1
        }
        if chance(20) { d.bluetoothNamePattern = pick(Self.patterns); criteria += 1 }
        if d.bluetoothCompanyIdentifier != nil, chance(40) {
            (d.bluetoothManufacturerDataBlob, d.bluetoothManufacturerDataMask) = blobAndMask()
            criteria += 1
        }
        if d.bluetoothServiceUUID != nil, chance(40) || criteria == 0 {
            (d.bluetoothServiceDataBlob, d.bluetoothServiceDataMask) = blobAndMask()
            criteria += 1
        }
        if criteria == 0 { d.bluetoothNameSubstring = pick(Self.names) }
        if chance(15) { d.bluetoothRange = .immediate }
        if chance(15) { d.minimumRSSI = Int.random(in: -90 ... -40, using: &rng) }
        if chance(5) { d.ssidPrefix = pick(Self.prefixes) }
        return d
    }

    mutating func data() -> [UInt8] { (0..<Int.random(in: 0...4, using: &rng)).map { _ in pick(Self.bytes) } }

    mutating func advertisement(_ n: UInt64) -> Advertisement {
        var ad = AdvertisingData()
        if chance(70) {
            let name = Array((chance(80) ? pick(Self.names + ["ACME-42", "Acme Sensor 7", "Bcme"]) : "").utf8)
            if chance(70) { ad.completeLocalName = name } else { ad.shortenedLocalName = name }
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) { ad.manufacturerData[pick(Self.companies)] = data() }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            if chance(50) { ad.completeServiceUUIDs.append(pick(Self.services)) } else { ad.incompleteServiceUUIDs.append(pick(Self.services)) }
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) { ad.serviceData[pick(Self.services)] = data() }
        let rssi: Int8? = chance(10) ? nil : Int8.random(in: -100 ... -30, using: &rng)
        return Build.advertisement(n, rssi: rssi, ad)
    }

    mutating func network() -> WiFiNetwork {
        let ssid = chance(80) ? pick(Self.ssids) : pick(Self.prefixes)
        return Build.network(ssid, bssid: 0x0200_0000_0000 | UInt64.random(in: 0...0x1FF, using: &rng),
                             signal: chance(10) ? nil : Int.random(in: -90 ... -30, using: &rng))
    }
}
