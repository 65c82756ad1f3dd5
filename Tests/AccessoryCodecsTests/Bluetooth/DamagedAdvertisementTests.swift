import AccessoryCodecs
import AccessoryCore
import Testing

/// Advertisements as devices really send them: damaged structures, a scan
/// response split from its advertisement, one company's data twice. Every
/// byte string is a published one; its source is beside it. Where the
/// source's parser (Home Assistant's bluetooth-data-tools) decides otherwise,
/// the comment says so.
@Suite("Damaged and split advertisements from published captures")
struct DamagedAdvertisementTests {
    static let device = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:FF:EE:00:00:01")!, addressType: .random)

    // MARK: - Leniency: keep what was readable, count the rest

    /// One row: AD bytes, what must be read from them, and what must be counted.
    struct Row: CustomTestStringConvertible {
        let source: String
        let bytes: [UInt8]
        let expected: AdvertisingData
        let damage: [ADParsingError]
        var testDescription: String { source }
    }

    static let rows: [Row] = [
        // Bluetooth-Devices/bluetooth-data-tools tests/test_gap.py,
        // test_parse_advertisement_data_ignores_invalid: an Apple device whose
        // last structure ("02 01") claims two octets and has one.
        Row(
            source: "Apple, last structure cut short",
            bytes: bluetoothHex("02 01 1a 02 0a 05 0a ff 4c 00 10 05 0a 1c 77 f9 5b 02 01"),
            expected: AdvertisingData(
                flags: 0x1A, manufacturerData: [0x004C: bluetoothHex("10 05 0a 1c 77 f9 5b")], txPowerLevel: 5),
            damage: [.structureLengthPastEnd(offset: 17, length: 2, available: 1)]),
        // The same file, test_parse_advertisement_data_recovers_from_corrupt_data:
        // Google Fast Pair (FE9F) service data, an empty incomplete 128-bit
        // list ("01 06"), then a length octet 0xF8 with nothing after it.
        Row(
            source: "Fast Pair FE9F, trailing junk",
            bytes: bluetoothHex("03 03 9f fe 17 16 9f fe") + [UInt8](repeating: 0, count: 20) + bluetoothHex("01 06 f8"),
            expected: AdvertisingData(
                completeServiceUUIDs: [BluetoothUUID(uuid16: 0xFE9F)],
                serviceData: [BluetoothUUID(uuid16: 0xFE9F): [UInt8](repeating: 0, count: 20)]),
            damage: [.structureLengthPastEnd(offset: 30, length: 0xF8, available: 0)]),
        // The same file, test_parse_advertisement_data_recovers_from_corrupt_data_2:
        // company 0x03C3's data, flags, then a length octet 0x20 at the very end.
        Row(
            source: "0x03C3, flags, trailing length octet",
            bytes: bluetoothHex(
                """
                1a ff c3 03 5f ef 35 42 b0 49 0f bb 00 26 01 00 6d 2a
                b2 63 d8 b0 02 0a 00 00 f2 02 01 06 20
                """),
            expected: AdvertisingData(
                flags: 0x06,
                manufacturerData: [0x03C3: bluetoothHex("5f ef 35 42 b0 49 0f bb 00 26 01 00 6d 2a b2 63 d8 b0 02 0a 00 00 f2")]),
            damage: [.structureLengthPastEnd(offset: 30, length: 0x20, available: 0)]),
        // The same file, test_manufacturer_data_short_by_one: a company id of one octet.
        Row(
            source: "manufacturer data shorter than its company id",
            bytes: bluetoothHex("02 ff 01"),
            expected: AdvertisingData(),
            damage: [.manufacturerDataTooShort(offset: 0, payloadLength: 1)]),
        // The same file, test_parse_advertisement_data_128bit_uuid_malformed_length
        // ("one_and_a_half"): a 128-bit list of 17 octets. bluetooth-data-tools
        // keeps the one whole UUID; here the structure is dropped whole (its
        // length is wrong, so its content is not trusted) and counted.
        Row(
            source: "128-bit list of 17 octets",
            bytes: bluetoothHex("12 07 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff 42"),
            expected: AdvertisingData(),
            damage: [.invalidUUIDListLength(type: 0x07, offset: 0, payloadLength: 17)]),
        // The same file, test_zero_padded_end: a shortened name with NUL padding.
        Row(
            source: "name with a trailing NUL",
            bytes: bluetoothHex("02 08 61 00"),
            expected: AdvertisingData(shortenedLocalName: Array("a".utf8)),
            damage: []),
        // The same file, test_parse_advertisement_with_empty_service_data
        // (its issue #179): service data 180A with no payload is well-formed.
        Row(
            source: "KT12200-B-00100, empty service data",
            bytes: bluetoothHex("02010603160a180303faff07ff0001509040a210094b5431323230302d422d3030313030"),
            expected: AdvertisingData(
                flags: 0x06, completeLocalName: Array("KT12200-B-00100".utf8),
                completeServiceUUIDs: [BluetoothUUID(uuid16: 0xFFFA)],
                serviceData: [BluetoothUUID(uuid16: 0x180A): []],
                manufacturerData: [0x0100: bluetoothHex("50 90 40 a2")]),
            damage: []),
    ]

    @Test(arguments: rows) func keepsWhatWasReadableAndCountsTheRest(_ row: Row) throws {
        let reading = AdvertisingDataParser.read(row.bytes)
        #expect(reading.data == row.expected)
        #expect(reading.damage == row.damage)
        // The strict form refuses exactly the damaged ones, with the first damage.
        if let first = row.damage.first {
            #expect(throws: first) { try AdvertisingDataParser.parse(row.bytes) }
        } else {
            #expect(try AdvertisingDataParser.parse(row.bytes) == row.expected)
        }
    }

    /// A bad-but-bounded structure is skipped and the reading goes on: the
    /// Apple capture above with its TX power structure made two octets long
    /// would lose the rest if it stopped. (Built from the first row.)
    @Test func aBoundedBadStructureIsSkippedAndReadingGoesOn() {
        let bytes = bluetoothHex("02 01 1a 03 0a 05 05 0a ff 4c 00 10 05 0a 1c 77 f9 5b")
        let reading = AdvertisingDataParser.read(bytes)
        #expect(reading.data == AdvertisingData(flags: 0x1A, manufacturerData: [0x004C: bluetoothHex("10 05 0a 1c 77 f9 5b")]))
        #expect(reading.damage == [.invalidTXPowerLevelLength(offset: 3, payloadLength: 2)])
    }

    /// The report decoder keeps the device and counts the damage by kind.
    @Test func theDecoderKeepsTheDeviceAndCountsTheDamage() throws {
        let ad = Self.rows[2].bytes
        var decoder = AdvertisingReportDecoder()
        let event = [0x3E, UInt8(12 + ad.count), 0x02, 0x01, 0x03, 0x01, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, UInt8(ad.count)]
            + ad + [0xB5]
        let heard = decoder.advertisements(fromEventPacket: event)
        try #require(heard.count == 1)
        #expect(heard[0].device == Self.device)
        #expect(heard[0].data == Self.rows[2].expected)
        #expect(heard[0].rawAdvertisingData == ad)
        #expect(decoder.drops[.structureLengthPastEnd] == 1)
        #expect(decoder.drops.summary == "structureLengthPastEnd=1")
    }

    // MARK: - Merging the scan response

    /// Moat S2 thermometer: 16-bit service 1000 in ADV_IND, 2000 in SCAN_RSP,
    /// service data of each, the name in the response. Base64 in
    /// Bluetooth-Devices/bluetooth-data-tools tests/test_gap.py,
    /// test_parse_advertisement_data_moat ("AgEGAwMAEBUW…", "AgoAAwMAIAsW…").
    static let moatAdvertising = bluetoothHex(
        "02 01 06 03 03 00 10 15 16 00 10 df 79 e3 a6 12 b3 15 50 70 63 54 62 1c 6f b9 0b ff ff")
    static let moatScanResponse = bluetoothHex(
        "02 0a 00 03 03 00 20 0b 16 00 50 df 79 e3 a6 12 b3 b9 0b 08 09 4d 6f 61 74 5f 53 32")

    @Test func uuidsSplitAcrossAdvertisementAndScanResponseAreJoinedAndDoNotFlip() {
        let advertising = Advertisement(
            LEAdvertisingReport(eventType: .scannableUndirected, device: Self.device, data: Self.moatAdvertising, rssi: -60))
        let response = Advertisement(
            LEAdvertisingReport(eventType: .scanResponse, device: Self.device, data: Self.moatScanResponse, rssi: -61))
        let both = [BluetoothUUID(uuid16: 0x1000), BluetoothUUID(uuid16: 0x2000)]

        let merged = advertising.merging(response)
        #expect(merged.data.completeServiceUUIDs == both)
        #expect(merged.data.localName == "Moat_S2")
        #expect(merged.data.txPowerLevel == 0)
        #expect(merged.data.flags == 0x06)
        #expect(Set(merged.data.serviceData.keys) == [BluetoothUUID(uuid16: 0x1000), BluetoothUUID(uuid16: 0x5000)])

        // The next advertisement, then the next response: the same view each time.
        let again = merged.merging(advertising)
        #expect(again.data == merged.data)
        #expect(again.merging(response).data == merged.data)
        // Heard the other way round, the advertisement's order still comes first.
        #expect(response.merging(advertising).data.completeServiceUUIDs == both)
    }

    /// Samsung (0x0075) sends two manufacturer structures of its own company
    /// id; the values as a BLE logger printed them in piotrm35/ARCH_TMP
    /// BLE_test_1.6.b/aux_maps/DEV_MAP.py (TEST_117_1), laid out as AD
    /// structures (extended advertising: more than 31 octets).
    static let samsungFirst = bluetoothHex("01 12 95 bb b6 71 00 00 00 00 02 54 ba 40 b0 01 01") + Array("Galaxy ".utf8)
    static let samsungSecond = bluetoothHex("01 12") + Array("A52s 5G".utf8) + [UInt8](repeating: 0, count: 18)

    @Test func oneCompanyTwiceKeepsBothValues() {
        let bytes = [UInt8(Self.samsungFirst.count + 3), 0xFF, 0x75, 0x00] + Self.samsungFirst
            + [UInt8(Self.samsungSecond.count + 3), 0xFF, 0x75, 0x00] + Self.samsungSecond
        let reading = AdvertisingDataParser.read(bytes)
        #expect(reading.damage.isEmpty)
        #expect(reading.data.manufacturerDataValues == [0x0075: [Self.samsungFirst, Self.samsungSecond]])
        #expect(reading.data.manufacturerData == [0x0075: Self.samsungFirst])

        // Split between advertisement and scan response, both are kept too.
        let advertising = Advertisement(
            device: Self.device, properties: [.scannable],
            data: AdvertisingDataParser.read([UInt8(Self.samsungFirst.count + 3), 0xFF, 0x75, 0x00] + Self.samsungFirst).data)
        let response = Advertisement(
            device: Self.device, properties: [.scanResponse],
            data: AdvertisingDataParser.read([UInt8(Self.samsungSecond.count + 3), 0xFF, 0x75, 0x00] + Self.samsungSecond).data)
        let merged = advertising.merging(response)
        #expect(merged.data.manufacturerDataValues == [0x0075: [Self.samsungFirst, Self.samsungSecond]])
        #expect(merged.merging(advertising).data == merged.data)
    }

    // MARK: - A published Ruuvi, clean

    /// RuuviTag data format 3 as hcidump shows it: Scrin/RuuviCollector
    /// src/test/java/fi/tkgwf/ruuvi/TestFixture.java, getDataFormat3Message.
    @Test func ruuviDataFormat3() throws {
        let packet = bluetoothHex(
            "04 3E 21 02 01 03 01 FF EE DD CC BB AA 15 02 01 06 11 FF 99 04 03 49 16 0E BE F8 00 05 FF EA 03 E1 0B BF B4")
        var decoder = AdvertisingReportDecoder()
        let heard = decoder.advertisements(fromEventPacket: packet.dropFirst())
        try #require(heard.count == 1)
        #expect(decoder.drops.total == 0)
        #expect(heard[0].data.flags == 0x06)
        #expect(heard[0].data.manufacturerData == [0x0499: bluetoothHex("03 49 16 0E BE F8 00 05 FF EA 03 E1 0B BF")])
        #expect(heard[0].rssi == -76)
    }
}
