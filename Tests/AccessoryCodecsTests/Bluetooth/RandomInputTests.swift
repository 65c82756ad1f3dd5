import AccessoryCodecs
import AccessoryCore
import Testing
import TestSupport

/// Seeded random bytes through every Bluetooth decoder: each input must end
/// in a value or a named error, never a trap. The seed is fixed so a failure
/// reproduces.
@Suite("Random input never traps the Bluetooth decoders")
struct RandomInputTests {
    private func randomBytes(_ generator: inout SplitMix64, maximumCount: Int) -> [UInt8] {
        (0..<Int.random(in: 0...maximumCount, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func advertisingDataParser() {
        var generator = SplitMix64(seed: 0xAD)
        var parsed = 0, rejected = 0
        for _ in 0..<20_000 {
            let bytes = randomBytes(&generator, maximumCount: 64)
            // The lenient reading and the strict one agree: clean means parsed.
            let reading = AdvertisingDataParser.read(bytes)
            do {
                #expect(try AdvertisingDataParser.parse(bytes) == reading.data)
                #expect(reading.damage.isEmpty)
                parsed += 1
            } catch {
                #expect(reading.damage.first == error)
                rejected += 1
            }
        }
        #expect(parsed > 0)
        #expect(rejected > 0)
    }

    /// The lab's real report events (legacy and extended) with two octets after
    /// the header overwritten: the report decoders, not just the length check, see the noise.
    @Test func corruptedReportEvents() throws {
        var generator = SplitMix64(seed: 0x3E)
        let events = try [BluetoothFixtures.passiveScan, BluetoothFixtures.activeScanResponse, BluetoothFixtures.extendedScan]
            .flatMap { try BluetoothFixtures.records($0) }
            .filter { $0.opcode == .eventPacket && $0.packet.first == HCIEvent.leMetaCode }
            .map(\.packet)
        try #require(events.count == 10)  // 2 passive, 4 active, 4 extended
        var decoder = AdvertisingReportDecoder()
        var heard = 0
        for round in 0..<20_000 {
            var event = events[round % events.count]
            for _ in 0..<2 {
                event[Int.random(in: 3..<event.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            heard += decoder.advertisements(fromEventPacket: event).count
        }
        #expect(heard > 0)
        #expect(decoder.drops[.malformedEvent] > 0)
        // Damaged AD structures are counted by kind; the reports are kept.
        #expect(decoder.drops[.structureLengthPastEnd] > 0)
    }

    @Test func anyEventPacket() {
        var generator = SplitMix64(seed: 0x0E)
        var decoded = 0
        for _ in 0..<20_000 {
            var packet = randomBytes(&generator, maximumCount: 40)
            if packet.count >= 2 { packet[1] = UInt8(packet.count - 2) }  // get past the length check
            if (try? HCIEvent.decode(packet)) != nil { decoded += 1 }
        }
        #expect(decoded > 0)
    }

    @Test func btsnoopFiles() throws {
        var generator = SplitMix64(seed: 0xB7)
        let capture = try BluetoothFixtures.bytes(BluetoothFixtures.activeScanResponse)
        var failed = 0
        for _ in 0..<2_000 {
            // The real capture with a few octets past its header overwritten.
            var bytes = capture
            for _ in 0..<4 {
                bytes[Int.random(in: 16..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do { _ = try BtsnoopReader.records(in: bytes) } catch { failed += 1 }
        }
        #expect(failed > 0)
    }
}
