import AccessoryWire
import Testing

@Suite struct BusRSSITests {
    @Test func unknownTravelsAs127AndComesBackAsNil() {
        #expect(BusRSSI.encode(nil) == 127)
        #expect(BusRSSI.decode(127) == nil)
    }

    @Test func readingsTravelAsThemselves() {
        for dBm in [-127, -60, 0, 20] {
            #expect(BusRSSI.decode(BusRSSI.encode(dBm)) == dBm)
        }
    }

    @Test func aReadingNeverBecomesUnknown() {
        // Out of range for a radio, but it must not turn into "not known".
        #expect(BusRSSI.encode(127) == 126)
        #expect(BusRSSI.encode(Int.max) == 126)
        #expect(BusRSSI.encode(Int.min) == Int32.min)
    }
}
