import Testing
@testable import AccessoryCore
import TestSupport

/// The sorted buckets must answer as a dictionary of slot lists would, through
/// adds and removes in any order. Seeded, so a failure names its case.
@Suite struct KeyedBucketsTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func answersAsADictionaryDoes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var buckets = KeyedBuckets<UInt16>()
        var reference: [UInt16: [Int]] = [:]
        for step in 0..<3_000 {
            // Few keys, so buckets fill, empty and come back.
            let key = UInt16.random(in: 0..<40, using: &random)
            if let slots = reference[key], !slots.isEmpty, Bool.random(using: &random) {
                let slot = slots.randomElement(using: &random)!
                buckets.remove(slot, from: key)
                var kept = slots
                let position = kept.firstIndex(of: slot)!
                kept.swapAt(position, kept.count - 1)
                kept.removeLast()
                reference[key] = kept.isEmpty ? nil : kept
            } else {
                buckets.add(step, under: key)
                reference[key, default: []].append(step)
            }
            for probe in UInt16(0)..<41 {
                #expect(buckets[probe] == reference[probe], "seed \(seed) step \(step) key \(probe)")
            }
            #expect(buckets.isEmpty == reference.isEmpty)
        }
    }

    @Test func removingWhatIsNotThereChangesNothing() {
        var buckets = KeyedBuckets<BluetoothUUID>()
        let uuid = BluetoothUUID(uuid16: 0xFE2C)
        buckets.add(7, under: uuid)
        buckets.remove(8, from: uuid)
        buckets.remove(7, from: BluetoothUUID(uuid16: 0x180F))
        #expect(buckets[uuid] == [7])
        buckets.remove(7, from: uuid)
        #expect(buckets[uuid] == nil)
        #expect(buckets.isEmpty)
    }
}
