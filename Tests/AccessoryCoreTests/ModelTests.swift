import Testing
@testable import AccessoryCore

@Suite struct HardwareAddressTests {
    @Test func parsesAndPrints() throws {
        let address = try #require(HardwareAddress("aa:bb:cc:dd:ee:0f"))
        #expect(address.description == "AA:BB:CC:DD:EE:0F")
        #expect(address.littleEndianOctets == [0x0F, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA])
        #expect(HardwareAddress(littleEndianOctets: address.littleEndianOctets) == address)
    }

    @Test(arguments: ["", "AA:BB:CC:DD:EE", "AA:BB:CC:DD:EE:FF:00", "AA:BB:CC:DD:EE:GG", "AAA:BB:CC:DD:EE:F"])
    func rejectsMalformed(text: String) {
        #expect(HardwareAddress(text) == nil)
    }
}

@Suite struct BluetoothUUIDTests {
    @Test func shortAndLongFormsAreEqual() throws {
        let short = try #require(BluetoothUUID("180f"))
        let long = try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB"))
        let lower = try #require(BluetoothUUID("0000180f-0000-1000-8000-00805f9b34fb"))
        #expect(short == long)
        #expect(long == lower)
        #expect(short.description == "180F")
        #expect(BluetoothUUID(littleEndianBytes: [0x0F, 0x18]) == short)
    }

    @Test func vendorUUIDKeepsItsFullForm() throws {
        let uuid = try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e"))
        #expect(uuid.description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(uuid.shortValue == nil)
        #expect(BluetoothUUID(littleEndianBytes: uuid.bytes.reversed()) == uuid)
    }

    @Test(arguments: ["", "18F", "180G", "0000180F0000-1000-8000-00805F9B34FB-", "0000180F00001000800000805F9B34FB0"])
    func rejectsMalformed(text: String) {
        #expect(BluetoothUUID(text) == nil)
    }
}

@Suite struct SSIDTests {
    @Test func displaysNonUTF8WithEscapes() throws {
        let ssid = try #require(SSID(bytes: [0x41, 0xFF, 0x5C, 0x00]))
        #expect(ssid.utf8Text == nil)
        #expect(ssid.displayName == "A\\xff\\x5c\\x00")
    }

    @Test func keepsUTF8Text() throws {
        let ssid = try #require(SSID("Café \"☕\""))
        #expect(ssid.displayName == "Café \"☕\"")
    }

    @Test func rejectsOver32Bytes() {
        #expect(SSID(bytes: [UInt8](repeating: 0x41, count: 33)) == nil)
        #expect(SSID(bytes: [UInt8](repeating: 0x41, count: 32)) != nil)
    }

    @Test func hiddenNetworks() throws {
        #expect(try #require(SSID(bytes: [])).isHidden)
        #expect(try #require(SSID(bytes: [0, 0, 0])).isHidden)
        #expect(try !#require(SSID("x")).isHidden)
    }
}

@Suite struct WiFiChannelTests {
    @Test(arguments: [(2412, 1), (2437, 6), (2484, 14), (5180, 36), (5825, 165), (5955, 1), (4000, nil)] as [(UInt32, Int?)])
    func channelNumbers(frequency: UInt32, channel: Int?) {
        #expect(WiFiChannel.number(forFrequencyMHz: frequency) == channel)
    }
}
