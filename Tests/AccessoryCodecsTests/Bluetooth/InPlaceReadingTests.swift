import AccessoryCodecs
import AccessoryCore
import Testing
import TestSupport

/// The readings over borrowed bytes that the intake's fast path uses agree
/// with the decoders that build values, on seeded random and mutated input.
@Suite struct InPlaceReadingTests {
    /// A valid one-report event, then bytes of it changed at random.
    private func event(_ generator: inout SplitMix64) -> [UInt8] {
        let reports = Int.random(in: 1...3, using: &generator)
        var parameters: [UInt8] = [0x02, UInt8(reports)]
        for _ in 0..<reports {
            let length = Int.random(in: 0...31, using: &generator)
            parameters += [UInt8.random(in: 0...4, using: &generator), UInt8.random(in: 0...3, using: &generator)]
            parameters += (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            parameters += [UInt8(length)] + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            parameters += [UInt8.random(in: 0...255, using: &generator)]
        }
        var bytes = [0x3E, UInt8(truncatingIfNeeded: parameters.count)] + parameters
        if Int.random(in: 0..<3, using: &generator) == 0 {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        if Int.random(in: 0..<8, using: &generator) == 0 { bytes.removeLast() }
        return bytes
    }

    @Test func reportsReadInPlaceAreTheDecodedReports() {
        var generator = SplitMix64(seed: 0x1A7E)
        var inPlace = 0
        for _ in 0..<20_000 {
            let bytes = event(&generator)
            var borrowed: [LEAdvertisingReport] = []
            let read = bytes.withUnsafeBytes { packet in
                LEAdvertisingReport.forEachReportInPlace(inEventPacket: packet) { borrowed.append($0.report) }
            }
            let decoded: [LEAdvertisingReport]? =
                if case .leMeta(.advertisingReports(let reports))? = try? HCIEvent.decode(bytes) { reports } else { nil }
            if read {
                inPlace += 1
                #expect(borrowed == decoded, "\(bytes)")
            } else {
                #expect(borrowed.isEmpty)
                #expect(decoded == nil, "the decoder took what the in-place reading refused: \(bytes)")
            }
        }
        #expect(inPlace > 1_000)
    }

    @Test func isCleanIsReadFindingNoDamage() {
        var generator = SplitMix64(seed: 0xC1EA)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                // Small values make plausible lengths and the AD types the parser knows.
                Int.random(in: 0..<2, using: &generator) == 0
                    ? UInt8.random(in: 0...6, using: &generator) : UInt8.random(in: 0...255, using: &generator)
            }
            let clean = bytes.withUnsafeBytes { AdvertisingDataParser.isClean($0) }
            #expect(clean == AdvertisingDataParser.read(bytes).damage.isEmpty, "\(bytes)")
        }
    }
}
