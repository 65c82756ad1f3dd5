import AccessoryCodecs
import AccessoryCore
import Testing

/// Real advertisements others captured and published, with the source of each.
@Suite("Published real advertisements")
struct PublishedAdvertisementTests {
    private func onlyReport(_ event: HCIEvent) throws -> LEAdvertisingReport {
        guard case .leMeta(.advertisingReports(let reports)) = event, reports.count == 1 else {
            throw UnexpectedEvent(event: event)
        }
        return reports[0]
    }

    private struct UnexpectedEvent: Error { let event: HCIEvent }

    /// iBeacon, as read from a raw HCI socket (H4 event), published in
    /// wolfspyre/PyBTSteward, EddyStone.md ("how to decode an iBeacon advertisement packet").
    @Test func iBeacon() throws {
        let packet = bluetoothHex(
            """
            04 3E 2A 02 01 03 00 EC F8 00 EE F3 0C 1E 02 01
            04 1A FF 4C 00 02 15 8D EE FB B9 F7 38 42 97 80
            40 96 66 8B B4 42 81 13 88 0F 4E C1 BB
            """)
        let report = try onlyReport(try HCIEvent.decode(h4Packet: packet))
        #expect(report.eventType == .nonConnectableUndirected)
        #expect(report.device == BluetoothDeviceIdentifier(address: BluetoothAddress("0C:F3:EE:00:F8:EC")!, addressType: .public))
        #expect(report.rssi == -69)

        let advertisement = Advertisement(report)
        #expect(advertisement.data.flags == 0x04)
        let apple = try #require(advertisement.data.manufacturerData[0x004C])
        // Apple's iBeacon layout: type 0x02, length 0x15, proximity UUID, major, minor, measured power.
        #expect(apple.prefix(2) == [0x02, 0x15])
        #expect(apple.count == 23)
        #expect(BluetoothUUID(littleEndianBytes: apple[2..<18].reversed()) == BluetoothUUID("8DEEFBB9-F738-4297-8040-96668BB44281"))
        #expect(UInt16(apple[18]) << 8 | UInt16(apple[19]) == 5000)  // major, big endian
        #expect(UInt16(apple[20]) << 8 | UInt16(apple[21]) == 3918)  // minor
        #expect(Int8(bitPattern: apple[22]) == -63)  // measured power at 1 m
    }

    /// Eddystone-UID, from the same PyBTSteward document: service UUID FEAA and its frame as service data.
    @Test func eddystoneUID() throws {
        let packet = bluetoothHex(
            """
            04 3E 29 02 01 00 01 F5 53 E0 AA 15 E5 1D 02 01 06 03 03 AA FE 15 16 AA FE
            00 DF ED D1 EB EA C0 4E 5D EF A0 17 E5 15 AA E0 53 F5 CB
            """)
        let report = try onlyReport(try HCIEvent.decode(h4Packet: packet))
        #expect(report.eventType == .connectableUndirected)
        #expect(report.device == BluetoothDeviceIdentifier(address: BluetoothAddress("E5:15:AA:E0:53:F5")!, addressType: .random))
        #expect(report.rssi == -53)

        let advertisement = Advertisement(report)
        #expect(advertisement.properties == [.legacy, .connectable, .scannable])
        #expect(advertisement.data.completeServiceUUIDs == [BluetoothUUID(uuid16: 0xFEAA)])
        let frame = try #require(advertisement.data.serviceData[BluetoothUUID(uuid16: 0xFEAA)])
        #expect(frame.first == 0x00)  // UID frame
        #expect(Int8(bitPattern: frame[1]) == -33)  // ranging data: TX power at 0 m
        #expect(Array(frame[2..<12]) == bluetoothHex("ED D1 EB EA C0 4E 5D EF A0 17"))  // namespace
        #expect(Array(frame[12...]) == bluetoothHex("E5 15 AA E0 53 F5"))  // instance
    }

    /// Eddystone-URL for https://www.google.com from Google's Linux URL advertiser,
    /// with its scan response carrying the host name: `hcidump --raw` output
    /// published in google/eddystone issue #118.
    @Test func eddystoneURLWithTheNameInTheScanResponse() throws {
        let advertising = bluetoothHex(
            """
            04 3E 21 02 01 00 00 BB 54 C1 60 53 DC 15 02 01 1A 03 03 AA
            FE 0D 16 AA FE 10 ED 01 67 6F 6F 67 6C 65 07 B7
            """)
        let scanResponse = bluetoothHex(
            """
            04 3E 23 02 01 04 00 BB 54 C1 60 53 DC 17 16 09 6C 6F 63 61
            6C 68 6F 73 74 2E 6C 6F 63 61 6C 64 6F 6D 61 69 6E B8
            """)
        var decoder = AdvertisingReportDecoder()
        let heard = [advertising, scanResponse].flatMap { decoder.advertisements(fromEventPacket: $0.dropFirst()) }
        try #require(heard.count == 2)
        #expect(decoder.drops.total == 0)

        let beacon = heard[0]
        #expect(beacon.device == BluetoothDeviceIdentifier(address: BluetoothAddress("DC:53:60:C1:54:BB")!, addressType: .public))
        #expect(beacon.data.localName == nil)
        #expect(beacon.data.completeServiceUUIDs == [BluetoothUUID(uuid16: 0xFEAA)])
        let frame = try #require(beacon.data.serviceData[BluetoothUUID(uuid16: 0xFEAA)])
        #expect(frame[0] == 0x10)  // URL frame
        #expect(Int8(bitPattern: frame[1]) == -19)  // TX power at 0 m
        #expect(frame[2] == 0x01)  // scheme "https://www."
        #expect(Array(frame[3...]) == Array("google".utf8) + [0x07])  // then ".com"

        #expect(heard[1].properties.contains(.scanResponse))
        let merged = beacon.merging(heard[1])
        #expect(merged.data.localName == "localhost.localdomain")
        #expect(merged.data.flags == 0x1A)
        #expect(merged.data.serviceData == beacon.data.serviceData)
        #expect(merged.rssi == -72)
    }

    /// A Govee H5074 thermometer, read from a raw HCI socket; published in
    /// wcbonner/GoveeBTTempLogger issue #55.
    @Test func goveeThermometer() throws {
        let packet = bluetoothHex(
            """
            04 3E 29 02 01 00 00 7D 14 23 59 60 E3 1D 02 01 06 07 03 0A 18 F5 FE 88 EC
            11 09 47 6F 76 65 65 5F 48 35 30 37 34 5F 31 34 37 44 CC
            """)
        let advertisement = Advertisement(try onlyReport(try HCIEvent.decode(h4Packet: packet)), controllerIndex: 0)
        #expect(advertisement.device.address == BluetoothAddress("E3:60:59:23:14:7D"))
        #expect(advertisement.data.localName == "Govee_H5074_147D")
        #expect(
            advertisement.data.completeServiceUUIDs
                == [BluetoothUUID(uuid16: 0x180A), BluetoothUUID(uuid16: 0xFEF5), BluetoothUUID(uuid16: 0xEC88)])
        #expect(advertisement.rssi == -52)
        #expect(advertisement.controllerIndex == 0)
    }

    /// An Apple device's Nearby Info (type 0x10) and an Xbox controller's
    /// Microsoft (0x0006) manufacturer data, from the btmon log attached to
    /// atar-axis/xpadneo (files/14233991/xpadneo-btmon.txt). btmon printed the
    /// fields, not the hex: each event below is those fields laid out again
    /// per Core Spec Vol 4 Part E §7.7.65.2, and its length matches btmon's plen.
    @Test func appleAndMicrosoftManufacturerData() throws {
        // plen 29; ADV_IND, Random 5B:33:FC:7F:EE:50, flags 0x1a, TX power 12,
        // Apple (76) type 16 data 3e1c0e3eb8, RSSI -81 (0xaf).
        let apple = bluetoothHex("3E 1D 02 01 00 01 50 EE 7F FC 33 5B 11 02 01 1A 02 0A 0C 0A FF 4C 00 10 05 3E 1C 0E 3E B8 AF")
        let phone = Advertisement(try onlyReport(try HCIEvent.decode(apple)))
        #expect(phone.device == BluetoothDeviceIdentifier(address: BluetoothAddress("5B:33:FC:7F:EE:50")!, addressType: .random))
        #expect(phone.data.flags == 0x1A)
        #expect(phone.data.txPowerLevel == 12)
        #expect(phone.data.manufacturerData == [0x004C: bluetoothHex("10 05 3E 1C 0E 3E B8")])
        #expect(phone.rssi == -81)

        // plen 31; ADV_IND, Public 68:6C:E6:7F:EB:7E, flags 0x04, TX power 20,
        // appearance Gamepad 0x03c4, Microsoft (6) data 00, 16-bit UUIDs 1812, RSSI -61 (0xc3).
        let xbox = bluetoothHex("3E 1F 02 01 00 00 7E EB 7F E6 6C 68 13 02 01 04 02 0A 14 03 19 C4 03 04 FF 06 00 00 03 03 12 18 C3")
        let gamepad = Advertisement(try onlyReport(try HCIEvent.decode(xbox)))
        #expect(gamepad.device == BluetoothDeviceIdentifier(address: BluetoothAddress("68:6C:E6:7F:EB:7E")!, addressType: .public))
        #expect(gamepad.data.flags == 0x04)
        #expect(gamepad.data.txPowerLevel == 20)
        #expect(gamepad.data.appearance == 0x03C4)
        #expect(gamepad.data.manufacturerData == [0x0006: [0x00]])
        #expect(gamepad.data.completeServiceUUIDs == [BluetoothUUID(uuid16: 0x1812)])
        #expect(gamepad.rssi == -61)
    }

    /// A Citizen Eco-Drive Proximity watch: the name in the advertisement, its
    /// 128-bit service in the scan response (BlueZ unit/test-eir.c, citizen1/citizen2).
    @Test func nameAndServiceSplitBetweenAdvertisementAndScanResponse() throws {
        let watch = BluetoothDeviceIdentifier(address: BluetoothAddress("00:00:00:00:00:01")!, addressType: .public)
        let advertisingData = bluetoothHex(
            "02 01 05 05 12 7f 01 8f 01 14 09 45 63 6f 2d 44 72 69 76 65 20 50 72 6f 78 69 6d 69 74 79")
        let scanResponseData = bluetoothHex(
            "02 0a 00 11 07 1b c5 d5 a5 02 00 46 9a e1 11 b7 8d 60 b4 45 2d")
        let advertisement = Advertisement(
            LEAdvertisingReport(eventType: .connectableUndirected, device: watch, data: advertisingData, rssi: -60))
        let scanResponse = Advertisement(
            LEAdvertisingReport(eventType: .scanResponse, device: watch, data: scanResponseData, rssi: -61))

        // The Slave Connection Interval Range (type 0x12) is not ours to parse: skipped.
        #expect(advertisement.data == AdvertisingData(flags: 0x05, completeLocalName: Array("Eco-Drive Proximity".utf8)))
        let merged = advertisement.merging(scanResponse)
        #expect(merged.data.localName == "Eco-Drive Proximity")
        #expect(merged.data.flags == 0x05)
        #expect(merged.data.txPowerLevel == 0)
        #expect(merged.data.completeServiceUUIDs == [BluetoothUUID("2d45b460-8db7-11e1-9a46-0002a5d5c51b")!])
        #expect(merged.rssi == -61)
        #expect(merged.properties == [.legacy, .connectable, .scannable])
        #expect(merged.rawScanResponse == scanResponseData)
    }

    /// More of BlueZ unit/test-eir.c: each with the values BlueZ's own test expects.
    @Test func bluezTestEIRCaptures() throws {
        // Gigaset G-tag: manufacturer 0x0180, incomplete 16-bit list 180F, then zero padding.
        let gtag = try AdvertisingDataParser.parse(bluetoothHex(
            "02 01 06 0d ff 80 01 02 15 12 34 80 91 d0 f2 bb c5 03 02 0f 18 00 00 00 00 00 00 00 00 00"))
        #expect(gtag.flags == 0x06)
        #expect(gtag.manufacturerData == [0x0180: bluetoothHex("02 15 12 34 80 91 d0 f2 bb c5")])
        #expect(gtag.incompleteServiceUUIDs == [BluetoothUUID(uuid16: 0x180F)])

        // Wahoo Scale v1.3: manufacturer id 0x0000 with two data octets.
        let scale = try AdvertisingDataParser.parse(bluetoothHex(
            "02 01 06 03 02 01 19 11 09 57 61 68 6f 6f 20 53 63 61 6c 65 20 76 31 2e 33 05 ff 00 00 00 9c"))
        #expect(scale.localName == "Wahoo Scale v1.3")
        #expect(scale.incompleteServiceUUIDs == [BluetoothUUID(uuid16: 0x1901)])
        #expect(scale.manufacturerData == [0x0000: [0x00, 0x9C]])

        // Nike+ FuelBand: a 128-bit UUID and TX power 0 (the source pads to 240 octets with zeros).
        let fuelband = try AdvertisingDataParser.parse(bluetoothHex(
            """
            0f 09 4e 69 6b 65 2b 20 46 75 65 6c 42 61 6e 64 11 07 00 00 00 00 de ca
            fa de de ca de af de ca ca ff 02 0a 00 00 00 00 00 00 00 00 00
            """))
        #expect(fuelband.localName == "Nike+ FuelBand")
        #expect(fuelband.completeServiceUUIDs == [BluetoothUUID("ffcacade-afde-cade-defa-cade00000000")!])
        #expect(fuelband.txPowerLevel == 0)

        // Marcel's MacBook Air (EIR, same structures): a UTF-8 name, eight 16-bit UUIDs
        // (0x110A twice, as sent), Apple data "\u{1}MacBookAir3,1", then zeros to 240 octets.
        let macbook = try AdvertisingDataParser.parse(bluetoothHex(
            """
            17 09 4d 61 72 63 65 6c e2 80 99 73 20 4d 61 63 42 6f 6f 6b 20 41 69 72
            11 03 12 11 0c 11 0a 11 1f 11 01 11 00 10 0a 11 17 11 11 ff 4c 00 01 4d
            61 63 42 6f 6f 6b 41 69 72 33 2c 31
            """) + [UInt8](repeating: 0, count: 180))
        #expect(macbook.localName == "Marcel’s MacBook Air")
        #expect(macbook.completeServiceUUIDs == [0x1112, 0x110C, 0x110A, 0x111F, 0x1101, 0x1000, 0x110A, 0x1117].map { BluetoothUUID(uuid16: $0) })
        #expect(macbook.manufacturerData == [0x004C: [0x01] + Array("MacBookAir3,1".utf8)])

        // UriBeacon (Eddystone-URL's predecessor) on FED8: service UUID and service data.
        let uriBeacon = try AdvertisingDataParser.parse(bluetoothHex(
            "03 03 d8 fe 0c 16 d8 fe 00 20 00 62 6c 75 65 7a 08"))
        #expect(uriBeacon.completeServiceUUIDs == [BluetoothUUID(uuid16: 0xFED8)])
        #expect(uriBeacon.serviceData == [BluetoothUUID(uuid16: 0xFED8): bluetoothHex("00 20 00 62 6c 75 65 7a 08")])
    }
}
