import AccessoryCodecs
import AccessoryCore
import Testing
import TestSupport

/// Hostile bytes must come back as a value or a named error, never a trap: a trap
/// would end the test process, so merely finishing these loops is the assertion,
/// and each also checks the error is one of the parser's own.
@Suite("Wi-Fi decoders never trap")
struct WiFiDecoderRobustnessTests {
    /// Runs every Wi-Fi decoder over `bytes`; returns how many threw.
    @discardableResult
    static func feedEveryDecoder(_ bytes: [UInt8]) -> Int {
        var failures = 0
        do { _ = try NetlinkAttributes(parsing: bytes) } catch { failures += 1 }
        do { _ = try GenericNetlinkMessage(parsing: bytes) } catch { failures += 1 }
        do { _ = try NL80211ScanResultDecoder.decode(message: bytes) } catch { failures += 1 }
        do { _ = try NL80211ScanResultDecoder.decode(bssAttributes: bytes[...]) } catch { failures += 1 }
        do { _ = try NL80211ScanResultDecoder.decodeDump(bytes) } catch { failures += 1 }
        do { _ = try InformationElements.parse(bytes) } catch { failures += 1 }
        do { _ = try RSNElement(parsing: bytes[...]) } catch { failures += 1 }
        do { _ = try WPAElement(parsingVendorBody: bytes[...]) } catch { failures += 1 }
        do { _ = try WPAElement(parsingVendorBody: (WPAElement.header + bytes)[...]) } catch { failures += 1 }
        do { _ = try OWETransitionElement(parsingVendorBody: bytes[...]) } catch { failures += 1 }
        do {
            _ = try OWETransitionElement(parsingVendorBody: (OWETransitionElement.header + bytes)[...])
        } catch { failures += 1 }
        do { _ = try HEOperation(parsing: bytes[...]) } catch { failures += 1 }
        do { _ = try HTOperation(parsing: bytes[...]) } catch { failures += 1 }
        do { _ = try VHTOperation(parsing: bytes[...]) } catch { failures += 1 }
        return failures
    }

    @Test func randomBytesOfEveryLength() {
        var generator = SplitMix64(seed: 0x5EED_0005)
        var threw = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...96, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            threw += Self.feedEveryDecoder(bytes)
        }
        #expect(threw > 0)  // random bytes are mostly malformed; all of it came back as errors
    }

    @Test(arguments: ["nl80211-get-scan-dump.bin", "nl80211-get-scan-dump-5-6ghz.bin"])
    func everyPrefixOfEveryCapturedMessage(file: String) throws {
        let dump = try WiFiLabFixtures.bytes(file)
        var reader = NetlinkMessageReader(dump)
        var offset = 0
        var messages = 0
        while let message = try reader.next() {
            let whole = Array(dump[offset..<offset + Int(message.header.length)])
            for length in 0..<whole.count {
                let prefix = Array(whole.prefix(length))
                // The message header still claims the full length: always a framing error.
                #expect(throws: NL80211DecodingError.self) {
                    try NL80211ScanResultDecoder.decode(message: prefix)
                }
                Self.feedEveryDecoder(prefix)
                Self.feedEveryDecoder(Array(message.payload.prefix(length)))
            }
            offset += (whole.count + 3) / 4 * 4
            messages += 1
        }
        #expect(messages == (file == "nl80211-get-scan-dump.bin" ? 15 : 3))
    }

    @Test func everyCapturedElementRunWithFlippedBytes() throws {
        let results = try NL80211ScanResultDecoder.decodeDump(WiFiLabFixtures.scanDump())
        #expect(!results.isEmpty, "the captured dump has BSSes to mutate")
        var generator = SplitMix64(seed: 0xF11B)
        var refusedMutations = 0
        for result in results {
            let elements = result.informationElements
            #expect(throws: Never.self, "the captured elements themselves parse") { try InformationElements.parse(elements) }
            for _ in 0..<100 {
                var mutated = elements
                for _ in 0..<3 {
                    let index = Int.random(in: 0..<mutated.count, using: &generator)
                    mutated[index] = UInt8.random(in: 0...255, using: &generator)
                }
                let cut = Int.random(in: 0...mutated.count, using: &generator)
                Self.feedEveryDecoder(Array(mutated.prefix(cut)))
                do {
                    _ = try InformationElements.parse(mutated)
                } catch {
                    // Typed throws: any error here is an IEParsingError case.
                    _ = error as IEParsingError
                    refusedMutations += 1
                }
            }
        }
        // Flipped bytes reach the refusals too, not only elements that still parse.
        #expect(refusedMutations > 0)
    }

    @Test func everyCapturedMessageWithFlippedBytes() throws {
        let dump = try WiFiLabFixtures.scanDump()
        var generator = SplitMix64(seed: 0xD0_0D1E)
        var decodedAfterMutation = 0
        for _ in 0..<800 {
            var mutated = dump
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                decodedAfterMutation += try NL80211ScanResultDecoder.decodeDump(mutated).count
            } catch {
                // Typed throws: whatever came back is one of the decoder's named errors.
                _ = error as NL80211DecodingError
            }
        }
        // Flips inside payloads the decoder does not check (TSF, padding…) still decode,
        // so the mutated dumps reached the nested BSS and element parsers too.
        #expect(decodedAfterMutation > 0)
    }
}
