import AccessoryCore
import Testing
@testable import AccessoryDaemon

@Suite struct MonitorLineBluetoothTests {
    static let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)

    @Test func everyFieldInItsPlace() {
        let advertisement = Advertisement(
            device: Self.device, properties: [.connectable, .scannable], rssi: -61, txPower: 7,
            data: AdvertisingData(
                flags: 0x1A, completeLocalName: Array("Hall Sensor".utf8),
                completeServiceUUIDs: [BluetoothUUID(uuid16: 0xFE2C)],
                serviceData: [BluetoothUUID(uuid16: 0xFE2C): [0x00, 0xA1], BluetoothUUID(uuid16: 0x180F): [0x64]],
                manufacturerData: [0x004C: [0x02, 0x15], 0x0006: [0x01]],
                appearance: 0x0341),
            controllerIndex: 2)
        #expect(MonitorLine.bluetooth(advertisement)
            == "bluetooth hci2 C0:FF:EE:00:00:01/random rssi=-61 tx_power=7 connectable=yes scannable=yes"
            + " name=\"Hall Sensor\" uuids=FE2C service_data=180F:64,FE2C:00a1 manufacturer=0006:01,004c:0215"
            + " appearance=0x0341 flags=0x1a")
    }

    @Test func nothingHeardButTheDevice() {
        #expect(MonitorLine.bluetooth(Advertisement(device: Self.device))
            == "bluetooth replay C0:FF:EE:00:00:01/random rssi=none connectable=no scannable=no")
    }

    @Test func namesFromTheAirStayOneLine() {
        #expect(MonitorLine.quoted(Array("a \"b\" \\c".utf8)) == #""a \"b\" \\c""#)
        // Invalid UTF-8 (0xFF): every byte but printable ASCII escaped, as before.
        #expect(MonitorLine.quoted([0x41, 0x0A, 0xFF, 0xC3, 0xA9]) == #""A\x0a\xff\xc3\xa9""#)
        // Valid UTF-8 is text; control, format and line-separator characters are escaped per byte.
        #expect(MonitorLine.quoted(Array("Marcel’s Café".utf8)) == "\"Marcel’s Café\"")
        #expect(MonitorLine.quoted(Array("a\nb\u{7F}\u{85}\u{202E}\u{2028}c".utf8))
            == #""a\x0ab\x7f\xc2\x85\xe2\x80\xae\xe2\x80\xa8c""#)
        let shortened = Advertisement(device: Self.device, data: AdvertisingData(shortenedLocalName: Array("Ha".utf8)))
        #expect(MonitorLine.bluetooth(shortened).hasSuffix(" short_name=\"Ha\""))
    }

    @Test func everyValueOfACompanyIsShown() {
        var data = AdvertisingData(manufacturerData: [0x0075: [0x01]])
        data.addManufacturerData([0x02], for: 0x0075)
        data.addManufacturerData([0x00], for: 0x004C)
        #expect(MonitorLine.bluetooth(Advertisement(device: Self.device, data: data))
            .hasSuffix(" manufacturer=004c:00,0075:01,0075:02"))
    }
}
