import Testing
@testable import AccessoryCore

/// The index must give exactly what checking every descriptor gives. Seeds are
/// fixed so a failure names the case that reproduces it.
@Suite struct MatchingIndexPropertyTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func indexAgreesWithAFullScan(seed: UInt64) throws {
        var random = RandomInputs(seed: seed)
        var index = MatchingIndex()
        var live: [DescriptorMatch] = []
        for n in 0..<300 {
            let app = AppID("app\(Int.random(in: 0..<20, using: &random.rng))")
            let id = DescriptorID(UInt64(n))
            let descriptor = random.descriptor()
            #expect(descriptor.violations.isEmpty, "generator made an invalid descriptor: \(descriptor)")
            try index.insert(descriptor, id: id, app: app)
            live.append(DescriptorMatch(app: app, descriptorID: id))
        }
        var matchedSomething = 0
        var buffer: [DescriptorMatch] = []
        for round in 0..<600 {
            // Churn: descriptors come and go while matching goes on.
            if round % 10 == 0, !live.isEmpty {
                let gone = live.remove(at: Int.random(in: 0..<live.count, using: &random.rng))
                #expect(index.remove(gone) != nil)
                let app = AppID("app\(Int.random(in: 0..<20, using: &random.rng))")
                let id = DescriptorID(UInt64(10_000 + round))
                try index.insert(random.descriptor(), id: id, app: app)
                live.append(DescriptorMatch(app: app, descriptorID: id))
            }
            let advertisement = random.advertisement(UInt64(round))
            let rssi: Int? = random.chance(20) ? Int.random(in: -90 ... -30, using: &random.rng) : advertisement.rssi.map(Int.init)
            let fast = index.matches(advertisement, rssi: rssi)
            let slow = index.matchesByScanningAll(advertisement, rssi: rssi)
            #expect(fast == slow, "seed \(seed) round \(round): \(advertisement)")
            // The reused buffer holds the same matches, each once, whatever it held before.
            index.matches(advertisement.data, rssi: rssi, into: &buffer)
            #expect(buffer.count == fast.count && Set(buffer) == fast, "seed \(seed) round \(round): \(buffer)")
            let network = random.network()
            #expect(index.matches(network) == index.matchesByScanningAll(network), "seed \(seed) round \(round): \(network)")
            if !fast.isEmpty { matchedSomething += 1 }
        }
        #expect(index.count == live.count)
        // The property is only worth something if the inputs do match now and then.
        #expect(matchedSomething > 50)
    }
}
