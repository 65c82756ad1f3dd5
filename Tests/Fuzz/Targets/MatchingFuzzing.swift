import AccessoryCodecs
import AccessoryCore

/// Descriptors against what the radios hear: the matching index must give
/// exactly what checking every descriptor in turn gives, for an
/// advertisement and for a BSS. The input is a descriptor file, an 0xFF
/// octet (never in UTF-8, so never in the file), an RSSI octet, then the
/// advertisement's AD structures, which also serve as the BSS's SSID.
let matchingTarget = FuzzTarget(name: "matching") { bytes in
    guard let separator = bytes.firstIndex(of: 0xFF),
        let entries = try? DescriptorFile.parse(Array(bytes[..<separator]), source: "fuzz.descriptors")
    else { return }
    var index = MatchingIndex()
    for entry in entries {
        try? index.insert(entry.descriptor, id: entry.id, app: entry.app)
    }
    let heard = bytes[(separator + 1)...]
    let rssi = heard.first.map { Int8(bitPattern: $0) }
    let data = Array(heard.dropFirst())

    let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)
    let advertisement = Advertisement(LEAdvertisingReport(eventType: .connectableUndirected, device: device, data: data, rssi: rssi))
    expect(index.matches(advertisement) == index.matchesByScanningAll(advertisement),
           "the index and the full scan disagree on an advertisement")

    if let ssid = SSID(bytes: data.prefix(SSID.maximumLength)) {
        let network = WiFiNetwork(bssid: BSSID(rawValue: 0x0200_0000_0100)!, ssid: ssid, frequencyMHz: 2412,
                                  signalDBm: rssi.map(Int.init))
        expect(index.matches(network) == index.matchesByScanningAll(network), "the index and the full scan disagree on a BSS")
    }
}
