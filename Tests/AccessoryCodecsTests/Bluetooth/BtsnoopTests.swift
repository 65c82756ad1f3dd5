import AccessoryCodecs
import AccessoryCore
import Testing

@Suite("btsnoop reader and writer")
struct BtsnoopTests {
    @Test func readsTheLabCaptureThatBtmonWrote() throws {
        let bytes = try BluetoothFixtures.bytes(BluetoothFixtures.passiveScan)
        let reader = try BtsnoopReader(bytes)
        #expect(reader.datalink == .linuxMonitor)

        let records = try BtsnoopReader.records(in: bytes)
        #expect(records.count == 146)
        // btmon opens with two system notes (no controller), then each controller's index records.
        #expect(records[0].opcode == .systemNote)
        #expect(records[0].controllerIndex == nil)
        #expect(records[0].packet.starts(with: Array("Linux version 6.1.0-56-amd64".utf8)))
        #expect(records[2].opcode == .newIndex)
        #expect(records[2].controllerIndex == BluetoothFixtures.advertiserIndex)
        #expect(records.allSatisfy { !$0.isTruncated && $0.cumulativeDrops == 0 })

        let hci = records.filter { $0.opcode == .commandPacket || $0.opcode == .eventPacket }
        #expect(hci.count == 36)
        #expect(hci.map(\.opcode.direction) == hci.map { $0.opcode == .commandPacket ? .hostToController : .controllerToHost })
        #expect(records[0].opcode.direction == nil)
        #expect(hci.first?.packet == HCICommand.readLocalVersionInformation.encoded())
        #expect(hci.first?.controllerIndex == BluetoothFixtures.scannerIndex)
        // Captured on 2026-11-22 (the VM's clock): the timestamps convert to Unix time.
        let seconds = (hci.first?.unixTimeMicroseconds ?? 0) / 1_000_000
        #expect((1_795_300_000..<1_795_400_000).contains(seconds))
        #expect(hci.first!.timestamp < hci.last!.timestamp)
    }

    /// Reading then writing a btmon capture gives back btmon's file, byte for byte.
    @Test func writerReproducesBtmonsFile() throws {
        for fixture in [BluetoothFixtures.passiveScan, BluetoothFixtures.activeScanResponse] {
            let bytes = try BluetoothFixtures.bytes(fixture)
            let records = try BtsnoopReader.records(in: bytes)
            #expect(try BtsnoopWriter(datalink: .linuxMonitor).file(records) == bytes)
        }
    }

    @Test func h4CapturesCarryTheIndicatorAndDirection() throws {
        let hci = try BluetoothFixtures.records(BluetoothFixtures.activeScanResponse)
            .filter { $0.opcode == .commandPacket || $0.opcode == .eventPacket }
        let writer = BtsnoopWriter(datalink: .hciUART)
        let file = try writer.file(hci)
        #expect(Array(file.prefix(16)) == Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])

        // The first record: a command (flags 0b10) with its 0x01 indicator.
        let firstRecord = Array(file[16..<(16 + 24 + 1 + hci[0].packet.count)])
        #expect(firstRecord[0..<4] == [0, 0, 0, UInt8(hci[0].packet.count + 1)])
        #expect(firstRecord[8..<12] == [0, 0, 0, 0x02])
        #expect(firstRecord[24] == HCIPacketIndicator.command.rawValue)

        let readBack = try BtsnoopReader.records(in: file)
        #expect(readBack.map(\.opcode) == hci.map(\.opcode))
        #expect(readBack.map(\.packet) == hci.map(\.packet))
        #expect(readBack.map(\.timestamp) == hci.map(\.timestamp))
        #expect(readBack.allSatisfy { $0.controllerIndex == nil })

        // ACL keeps its direction through the flags.
        let acl = [
            BtsnoopRecord(timestamp: 1, controllerIndex: nil, opcode: .aclTxPacket, packet: [0x40, 0x00]),
            BtsnoopRecord(timestamp: 2, controllerIndex: nil, opcode: .aclRxPacket, packet: [0x40, 0x20]),
        ]
        #expect(try BtsnoopReader.records(in: writer.file(acl)) == acl)

        // H4 cannot say "new controller".
        let newIndex = BtsnoopRecord(timestamp: 0, controllerIndex: 0, opcode: .newIndex, packet: [])
        #expect(throws: BtsnoopError.recordNotRepresentable(.newIndex, .hciUART)) { try writer.encode(newIndex) }

        // A length a record's 32-bit field cannot say.
        let huge = BtsnoopRecord(timestamp: 0, controllerIndex: 0, opcode: .eventPacket, packet: [], originalLength: Int.max)
        #expect(throws: BtsnoopError.recordTooLong(length: Int.max)) { try writer.encode(huge) }
        #expect(throws: BtsnoopError.recordTooLong(length: Int.max)) { try BtsnoopWriter().encode(huge) }
    }

    @Test func replayFeedsTheSameDecoderAsTheSocket() throws {
        // What the daemon's replay does: read records, keep the events of one controller, decode.
        var reader = try BtsnoopReader(try BluetoothFixtures.bytes(BluetoothFixtures.activeScanResponse))
        var decoder = AdvertisingReportDecoder()
        var names: [String] = []
        while let record = try reader.next() {
            guard record.opcode == .eventPacket, record.controllerIndex == BluetoothFixtures.scannerIndex else { continue }
            names += decoder.advertisements(fromEventPacket: record.packet, controllerIndex: record.controllerIndex)
                .compactMap(\.data.localName)
        }
        #expect(names == ["Porch Light", "Porch Light"])
        #expect(try reader.next() == nil)
    }

    @Test func badFileHeaders() throws {
        let good = try BluetoothFixtures.bytes(BluetoothFixtures.passiveScan)
        #expect(throws: BtsnoopError.truncatedFileHeader(length: 0)) { try BtsnoopReader([]) }
        #expect(throws: BtsnoopError.truncatedFileHeader(length: 15)) { try BtsnoopReader(good.prefix(15)) }

        var badMagic = good
        badMagic[0] = UInt8(ascii: "B")
        #expect(throws: BtsnoopError.badMagic(Array("Btsnoop".utf8) + [0])) { try BtsnoopReader(badMagic) }

        var version = good
        version[11] = 2
        #expect(throws: BtsnoopError.unsupportedVersion(2)) { try BtsnoopReader(version) }

        var datalink = good
        datalink.replaceSubrange(12..<16, with: [0, 0, 0x03, 0xE9])  // 1001, H1
        #expect(throws: BtsnoopError.unsupportedDatalink(1001)) { try BtsnoopReader(datalink) }
    }

    @Test func badRecordsStopTheReaderWithTheRecordsBeforeThemIntact() throws {
        let good = try BluetoothFixtures.bytes(BluetoothFixtures.activeScanResponse)
        let firstRecordLength = 24 + Int(good[16 + 7])  // header plus the included length (< 256 here)
        let secondOffset = 16 + firstRecordLength

        // The file ends inside the second record's header.
        var reader = try BtsnoopReader(good.prefix(secondOffset + 10))
        #expect(try reader.next() != nil)
        #expect(throws: BtsnoopError.truncatedRecordHeader(offset: secondOffset, available: 10)) { try reader.next() }

        // The file ends inside the second record's packet.
        let secondIncluded = Int(good[secondOffset + 7])
        reader = try BtsnoopReader(good.prefix(secondOffset + 24 + secondIncluded - 1))
        #expect(try reader.next() != nil)
        #expect(
            throws: BtsnoopError.recordLengthPastEnd(
                offset: secondOffset, includedLength: UInt32(secondIncluded), available: secondIncluded - 1)
        ) { try reader.next() }

        // A length far past the end (and past what Int could index on a 32-bit board).
        var huge = Array(good.prefix(secondOffset + 24))
        huge.replaceSubrange((secondOffset)..<(secondOffset + 8), with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        reader = try BtsnoopReader(huge)
        #expect(try reader.next() != nil)
        #expect(throws: BtsnoopError.recordLengthPastEnd(offset: secondOffset, includedLength: 0xFFFF_FFFF, available: 0)) {
            try reader.next()
        }

        // More included than the packet had.
        var inverted = good
        inverted[16 + 3] = 0
        #expect(throws: BtsnoopError.includedLengthExceedsOriginal(offset: 16, includedLength: good[16 + 7].widened, originalLength: 0)) {
            try BtsnoopReader.records(in: inverted)
        }
    }

    @Test func badH4Records() throws {
        let writer = BtsnoopWriter(datalink: .hciUART)
        // An H4 record of zero octets: no indicator to say what it is.
        let emptyRecord: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        #expect(throws: BtsnoopError.emptyH4Record(offset: 16)) { try BtsnoopReader.records(in: writer.header + emptyRecord) }
        // Indicator 0x07 is no HCI packet type.
        let unknown: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0x07]
        #expect(throws: BtsnoopError.unknownH4Indicator(offset: 16, indicator: 0x07)) {
            try BtsnoopReader.records(in: writer.header + unknown)
        }
    }
}

extension UInt8 {
    fileprivate var widened: UInt32 { UInt32(self) }
}
