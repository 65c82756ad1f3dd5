import AccessoryCodecs
import AccessoryCore
import Testing

/// Replays the lab captures (btvirt controllers, recorded by `btmon -w`) through
/// the decode path the daemon uses, and checks the exact values the lab advertised
/// (see Fixtures/bluetooth/capture-legacy.sh).
@Suite("Lab captures: btsnoop → HCI → AD → Advertisement")
struct LabCaptureAdvertisementTests {
    private func replay(_ fixture: String) throws -> (advertisements: [Advertisement], drops: AdvertisingDropCounters) {
        var decoder = AdvertisingReportDecoder()
        var advertisements: [Advertisement] = []
        for record in try BluetoothFixtures.records(fixture) where record.opcode == .eventPacket {
            advertisements += decoder.advertisements(fromEventPacket: record.packet, controllerIndex: record.controllerIndex)
        }
        return (advertisements, decoder.drops)
    }

    @Test func passiveScanHearsBothPayloadsWithTheirExactFields() throws {
        let (advertisements, drops) = try replay(BluetoothFixtures.passiveScan)
        #expect(drops.total == 0)
        try #require(advertisements.count == 2)

        // Payload A: flags, Nordic UART 128-bit UUID, service data 180F = 0x64, manufacturer 0xFFFF = 0x2A.
        let first = advertisements[0]
        #expect(first.device == BluetoothFixtures.advertiser)
        #expect(first.properties == [.legacy])  // ADV_NONCONN_IND
        #expect(first.rssi == nil)  // the emulated controller reports RSSI 127, "not available"
        #expect(first.primaryPHY == .le1M)
        #expect(first.controllerIndex == BluetoothFixtures.scannerIndex)
        #expect(first.data.flags == 0x06)
        #expect(first.data.completeServiceUUIDs == [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
        #expect(first.data.serviceData == [BluetoothUUID(uuid16: 0x180F): [0x64]])
        #expect(first.data.manufacturerData == [0xFFFF: [0x2A]])
        #expect(first.data.localName == nil)
        #expect(first.rawAdvertisingData.count == 31)

        // Payload B: flags, "Lab Sensor", 180F, TX power -8, appearance 0x0300, manufacturer 0xFFFF = 0x2B.
        let second = advertisements[1]
        #expect(second.device == BluetoothFixtures.advertiser)
        #expect(second.data.localName == "Lab Sensor")
        #expect(second.data.completeLocalName == Array("Lab Sensor".utf8))
        #expect(second.data.completeServiceUUIDs == [BluetoothUUID(uuid16: 0x180F)])
        #expect(second.data.txPowerLevel == -8)
        #expect(second.data.appearance == 0x0300)
        #expect(second.data.manufacturerData == [0xFFFF: [0x2B]])

        // 31 octets cannot hold all of it at once; together the two carry every field.
        let merged = first.merging(second)
        #expect(merged.data.localName == "Lab Sensor")
        #expect(merged.data.serviceData[BluetoothUUID(uuid16: 0x180F)] == [0x64])
        #expect(merged.data.manufacturerData == [0xFFFF: [0x2B]])
    }

    @Test func activeScanHearsTheNameOnlyInTheScanResponse() throws {
        let (advertisements, drops) = try replay(BluetoothFixtures.activeScanResponse)
        #expect(drops.total == 0)
        // Advertising was enabled twice: an ADV_SCAN_IND and its SCAN_RSP each time.
        try #require(advertisements.count == 4)
        let advertisement = advertisements[0]
        let scanResponse = advertisements[1]
        #expect(advertisements[2] == advertisement)
        #expect(advertisements[3] == scanResponse)

        #expect(advertisement.properties == [.legacy, .scannable])
        #expect(advertisement.data.localName == nil)
        #expect(advertisement.data.flags == 0x06)
        #expect(advertisement.data.incompleteServiceUUIDs == [BluetoothUUID(uuid16: 0x180F)])
        #expect(advertisement.data.manufacturerData == [0xFFFF: [0x01, 0x02, 0x03, 0x04]])

        #expect(scanResponse.properties.contains(.scanResponse))
        #expect(scanResponse.properties.contains(.legacy))
        #expect(scanResponse.data.localName == "Porch Light")
        #expect(scanResponse.data.txPowerLevel == 4)
        #expect(scanResponse.data.completeServiceUUIDs == [BluetoothUUID(uuid32: 0x1234_5678)])

        let merged = advertisement.merging(scanResponse)
        #expect(merged.data.localName == "Porch Light")
        #expect(merged.properties == [.legacy, .scannable])
        #expect(merged.rawAdvertisingData == advertisement.rawAdvertisingData)
        #expect(merged.rawScanResponse == scanResponse.rawAdvertisingData)
        #expect(merged.data.serviceUUIDs == [BluetoothUUID(uuid32: 0x1234_5678), BluetoothUUID(uuid16: 0x180F)])
        #expect(merged.data.txPowerLevel == 4)
        #expect(merged.data.manufacturerData == [0xFFFF: [0x01, 0x02, 0x03, 0x04]])
    }

    @Test func scanResponseReportFieldsAsBtmonShowedThem() throws {
        let records = try BluetoothFixtures.records(BluetoothFixtures.activeScanResponse)
        let reports = try records.filter { $0.opcode == .eventPacket }.flatMap { record -> [LEAdvertisingReport] in
            guard case .leMeta(.advertisingReports(let reports)) = try HCIEvent.decode(record.packet) else { return [] }
            return reports
        }
        try #require(reports.count == 4)
        // btmon: Scan response - SCAN_RSP (0x04), Public, 00:AA:01:01:00:01, Data length 22, RSSI invalid (0x7f).
        #expect(reports[1].eventType == .scanResponse)
        #expect(reports[1].device == BluetoothFixtures.advertiser)
        #expect(reports[1].data.count == 22)
        #expect(reports[1].rssi == nil)
        #expect(reports[0].eventType == .scannableUndirected)
        #expect(reports[0].data.count == 15)
    }
}
