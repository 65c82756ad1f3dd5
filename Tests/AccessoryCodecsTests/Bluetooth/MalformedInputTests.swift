import AccessoryCodecs
import AccessoryCore
import Testing

/// Hostile or broken input gives a named error (or is dropped and counted), never a crash.
/// Most cases start from a real lab event and break one thing in it.
@Suite("Malformed HCI events and AD structures")
struct MalformedInputTests {
    /// The first LE Advertising Report of the passive-scan capture (ADV_NONCONN_IND, 31 octets of AD).
    private func capturedReportEvent() throws -> [UInt8] {
        let record = try #require(
            try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
                .first { $0.opcode == .eventPacket && $0.packet.first == HCIEvent.leMetaCode })
        return record.packet
    }

    /// Read Local Version Information's Command Complete from the same capture.
    private func capturedVersionComplete() throws -> [UInt8] {
        let record = try #require(
            try BluetoothFixtures.records(BluetoothFixtures.passiveScan)
                .first { $0.opcode == .eventPacket && $0.packet.starts(with: [0x0E, 0x0C, 0x01, 0x01, 0x10]) })
        return record.packet
    }

    /// `bytes` with the header's parameter length set to what follows it.
    private func withFixedLength(_ bytes: [UInt8]) -> [UInt8] {
        var fixed = bytes
        fixed[1] = UInt8(bytes.count - 2)
        return fixed
    }

    @Test func emptyAndHeaderlessEvents() {
        #expect(throws: HCIDecodingError.emptyPacket) { try HCIEvent.decode([]) }
        #expect(throws: HCIDecodingError.truncatedHeader(length: 1)) { try HCIEvent.decode([0x3E]) }
        #expect(throws: HCIDecodingError.emptyLEMetaEvent) { try HCIEvent.decode([0x3E, 0x00]) }
    }

    @Test func parameterLengthMustMatchTheBytes() throws {
        let event = try capturedReportEvent()
        #expect(throws: HCIDecodingError.parameterLengthMismatch(declared: 43, actual: 42)) {
            try HCIEvent.decode(event.dropLast())
        }
        #expect(throws: HCIDecodingError.parameterLengthMismatch(declared: 43, actual: 44)) {
            try HCIEvent.decode(event + [0x00])
        }
    }

    @Test func reportCountLargerThanTheData() throws {
        var event = try capturedReportEvent()
        event[3] = 2  // Num_Reports: the event holds one
        #expect(throws: HCIDecodingError.reportCountExceedsData(declared: 2, found: 1)) { try HCIEvent.decode(event) }
        event[3] = 0
        #expect(throws: HCIDecodingError.noAdvertisingReports) { try HCIEvent.decode(event) }
    }

    @Test func reportCutInsideAField() throws {
        let event = try capturedReportEvent()
        // Header, subevent, count, event type, address type, four of six address octets.
        #expect(throws: HCIDecodingError.truncatedAdvertisingReport(index: 0, field: .address)) {
            try HCIEvent.decode(withFixedLength(Array(event.prefix(10))))
        }
        // Everything but the RSSI.
        #expect(throws: HCIDecodingError.truncatedAdvertisingReport(index: 0, field: .rssi)) {
            try HCIEvent.decode(withFixedLength(Array(event.dropLast())))
        }
        // The data length says 31; cut the data short.
        #expect(throws: HCIDecodingError.truncatedAdvertisingReport(index: 0, field: .data)) {
            try HCIEvent.decode(withFixedLength(Array(event.prefix(20))))
        }
    }

    @Test func legacyReportFieldsOutOfRange() throws {
        var event = try capturedReportEvent()
        event[4] = 0x05  // event type after SCAN_RSP
        #expect(throws: HCIDecodingError.unknownLegacyEventType(index: 0, value: 0x05)) { try HCIEvent.decode(event) }

        event = try capturedReportEvent()
        event[5] = 0x04  // address type
        #expect(throws: HCIDecodingError.unknownAddressType(index: 0, value: 0x04)) { try HCIEvent.decode(event) }

        // 32 octets of AD in a legacy report.
        event = try capturedReportEvent()
        event[12] = 32
        event.insert(0x00, at: event.count - 1)
        #expect(throws: HCIDecodingError.advertisingDataTooLong(index: 0, length: 32)) {
            try HCIEvent.decode(withFixedLength(event))
        }
    }

    @Test func rssi127MeansUnknownAndOtherValuesAreKept() throws {
        var event = try capturedReportEvent()
        #expect(event.last == 0x7F)  // as the emulated controller sent it
        guard case .leMeta(.advertisingReports(let unknown)) = try HCIEvent.decode(event) else {
            Issue.record("not a report")
            return
        }
        #expect(unknown.first?.rssi == nil)
        event[event.count - 1] = 0x81
        guard case .leMeta(.advertisingReports(let weak)) = try HCIEvent.decode(event) else {
            Issue.record("not a report")
            return
        }
        #expect(weak.first?.rssi == -127)
    }

    @Test func truncatedCommandComplete() throws {
        let complete = try capturedVersionComplete()
        #expect(throws: HCIDecodingError.truncatedCommandComplete(length: 2)) {
            try HCIEvent.decode(withFixedLength(Array(complete.prefix(4))))
        }
        // Credits and opcode but no status.
        #expect(throws: HCIDecodingError.truncatedCommandComplete(length: 3)) {
            try HCIEvent.decode(withFixedLength(Array(complete.prefix(5))))
        }
        // Success, but only 2 of the 8 return octets.
        #expect(
            throws: HCIDecodingError.truncatedReturnParameters(opcode: .readLocalVersionInformation, expected: 8, actual: 2)
        ) {
            try HCIEvent.decode(withFixedLength(Array(complete.prefix(8))))
        }
        // A failed command may omit its return parameters.
        var failed = Array(complete.prefix(6))
        failed[5] = HCIStatus.controllerBusy.code
        #expect(
            try HCIEvent.decode(withFixedLength(failed))
                == .commandComplete(
                    HCICommandComplete(
                        allowedCommandPackets: 1, opcode: .readLocalVersionInformation, status: .controllerBusy,
                        returnParameters: .noParameters)))
    }

    @Test func commandStatusMustBeFourOctets() {
        #expect(throws: HCIDecodingError.invalidCommandStatusLength(3)) { try HCIEvent.decode(bluetoothHex("0f 03 01 01 41")) }
        #expect(throws: HCIDecodingError.invalidCommandStatusLength(5)) {
            try HCIEvent.decode(bluetoothHex("0f 05 01 01 41 20 00"))
        }
    }

    /// Every event the lab captured has a fixed layout, so every shorter
    /// prefix of it (with its length fixed up) must throw, and none may trap.
    @Test func everyTruncationOfEveryCapturedEventThrows() throws {
        var checked = 0
        for fixture in [BluetoothFixtures.passiveScan, BluetoothFixtures.activeScanResponse] {
            for record in try BluetoothFixtures.records(fixture) where record.opcode == .eventPacket {
                #expect(throws: Never.self) { try HCIEvent.decode(record.packet) }
                for length in 2..<record.packet.count {
                    #expect(throws: HCIDecodingError.self) {
                        try HCIEvent.decode(withFixedLength(Array(record.packet.prefix(length))))
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 396)  // every prefix of the 33 captured events
    }

    @Test func adLengthZeroEndsTheSignificantPart() throws {
        // Flags, then a zero length octet, then what would be a 16-bit list: ignored.
        let data = try AdvertisingDataParser.parse(bluetoothHex("02 01 06 00 03 03 0f 18"))
        #expect(data == AdvertisingData(flags: 0x06))
        #expect(try AdvertisingDataParser.parse([]) == AdvertisingData())
        #expect(try AdvertisingDataParser.parse([0, 0, 0]) == AdvertisingData())
    }

    @Test func adLengthPastTheEnd() {
        #expect(throws: ADParsingError.structureLengthPastEnd(offset: 3, length: 5, available: 3)) {
            try AdvertisingDataParser.parse(bluetoothHex("02 01 06 05 09 41 42"))
        }
        #expect(throws: ADParsingError.structureLengthPastEnd(offset: 0, length: 1, available: 0)) {
            try AdvertisingDataParser.parse([0x01])
        }
    }

    @Test func adPayloadsOfTheWrongSize() {
        #expect(throws: ADParsingError.invalidUUIDListLength(type: 0x03, offset: 0, payloadLength: 3)) {
            try AdvertisingDataParser.parse(bluetoothHex("04 03 0f 18 0a"))
        }
        #expect(throws: ADParsingError.invalidUUIDListLength(type: 0x07, offset: 0, payloadLength: 15)) {
            try AdvertisingDataParser.parse([0x10, 0x07] + [UInt8](repeating: 0xAB, count: 15))
        }
        #expect(throws: ADParsingError.serviceDataTooShort(type: 0x20, offset: 0, payloadLength: 3)) {
            try AdvertisingDataParser.parse(bluetoothHex("04 20 01 02 03"))
        }
        #expect(throws: ADParsingError.manufacturerDataTooShort(offset: 3, payloadLength: 1)) {
            try AdvertisingDataParser.parse(bluetoothHex("02 01 06 02 ff 4c"))
        }
        #expect(throws: ADParsingError.invalidAppearanceLength(offset: 0, payloadLength: 3)) {
            try AdvertisingDataParser.parse(bluetoothHex("04 19 c0 03 00"))
        }
        #expect(throws: ADParsingError.invalidTXPowerLevelLength(offset: 0, payloadLength: 0)) {
            try AdvertisingDataParser.parse(bluetoothHex("01 0a"))
        }
    }

    @Test func unknownADTypesAreSkippedAndEmptyListsAllowed() throws {
        // 0x2A is a type this parser does not read; 0x03 with no UUIDs is an empty complete list.
        let data = try AdvertisingDataParser.parse(bluetoothHex("03 2a 01 02 01 03 02 01 06"))
        #expect(data == AdvertisingData(flags: 0x06))
    }

    @Test func decoderCountsWhatItDrops() throws {
        var decoder = AdvertisingReportDecoder()
        var event = try capturedReportEvent()
        #expect(decoder.advertisements(fromEventPacket: []).isEmpty)
        #expect(decoder.advertisements(fromEventPacket: event.dropLast()).isEmpty)
        #expect(decoder.drops[.malformedEvent] == 2)

        // A report whose first AD structure claims more than it holds: the
        // event is fine, its data is not. The device is still heard, with no
        // data, and the structure counted.
        event[13] = 0x1F
        let heard = decoder.advertisements(fromEventPacket: event)
        #expect(heard.count == 1)
        #expect(heard.first?.data == AdvertisingData())
        #expect(decoder.drops[.structureLengthPastEnd] == 1)
        #expect(decoder.drops.total == 3)
        #expect(decoder.drops.nonZero.map(\.reason) == [.malformedEvent, .structureLengthPastEnd])

        // Events that are not advertising reports give nothing and count nothing.
        #expect(decoder.advertisements(fromEventPacket: try capturedVersionComplete()).isEmpty)
        #expect(decoder.drops.total == 3)
    }
}
