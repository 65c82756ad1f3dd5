import Testing
@testable import AccessoryCore

/// `recordClean` (the intake's path for every clean report, new devices
/// included, reusing an evicted entry's storage) against `record` of the
/// advertisement the same report makes: the same entries, the same events.
@Suite struct RecordCleanTests {
    let apple: UInt16 = 0x004C

    func index() throws -> MatchingIndex {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "acme")
        return index
    }

    /// Report `n` of a crowd: every seventh a scan response, every fifth an Acme beacon that matches.
    func report(_ n: UInt64, device: UInt64) -> (AdvertisingReportFacts, AdvertisingData, [UInt8]) {
        let scanResponse = n % 7 == 3
        var properties: AdvertisingProperties = [.legacy, .scannable]
        if scanResponse { properties.insert(.scanResponse) }
        let facts = AdvertisingReportFacts(
            device: Build.device(device), properties: properties, rssi: Int8(-40 - Int(n % 50)), primaryPHY: .le1M,
            controllerIndex: 0)
        let data =
            n % 5 == 0
            ? AdvertisingData(completeLocalName: Build.name("Acme \(n)"), manufacturerData: [apple: [0x02, UInt8(n & 0xFF)]])
            : AdvertisingData(
                completeServiceUUIDs: [Build.uuid("180F")], manufacturerData: [UInt16(n % 9): [UInt8(n & 0xFF), 1, 2]])
        // The AD bytes only need to differ with the data: the registry compares them, it does not parse them.
        let payload = [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), scanResponse ? 1 : 0, UInt8(n % 5)]
        return (facts, data, payload)
    }

    @Test func aCrowdPastTheCapEndsTheSameByEitherPath() throws {
        let index = try index()
        let configuration = PresenceConfiguration(capacity: 16)
        var byRecord = AccessoryRegistry(configuration: configuration)
        var byClean = AccessoryRegistry(configuration: configuration)
        let clock = ManualClock()
        var devicesSeen = Set<UInt64>()
        for n in 0..<2_000 as Range<UInt64> {
            clock.advance(by: .milliseconds(7))
            // 40 devices over a cap of 16: most reports are of a device evicted since its last.
            let device = 0x100 + (n * 13) % 40
            devicesSeen.insert(device)
            let (facts, data, payload) = report(n, device: device)
            let advertisement = Advertisement(
                device: facts.device, properties: facts.properties, rssi: facts.rssi, primaryPHY: facts.primaryPHY,
                data: data, rawAdvertisingData: payload, controllerIndex: facts.controllerIndex)
            let known = byRecord[.bluetooth(facts.device)] != nil
            let expected: [PresenceEvent]
            if known {
                var merged = byRecord[.bluetooth(facts.device)]!.advertisement!
                merged.merge(advertisement)
                expected = byRecord.record(advertisement, at: clock.now, matchingWith: index)
                #expect(byRecord[.bluetooth(facts.device)]?.advertisement == merged)
            } else {
                expected = byRecord.record(advertisement, at: clock.now, matchingWith: index)
            }
            let events = payload.withUnsafeBytes { bytes in
                byClean.recordClean(facts, payload: bytes, at: clock.now, matchingWith: index) { data }
            }
            #expect(events == expected, "report \(n)")
            let key = AccessoryKey.bluetooth(facts.device)
            #expect(byClean[key]?.advertisement == byRecord[key]?.advertisement, "report \(n)")
            #expect(byClean[key]?.firstHeard == byRecord[key]?.firstHeard)
            #expect(byClean[key]?.rssi == byRecord[key]?.rssi)
            #expect(byClean[key]?.matches == byRecord[key]?.matches)
            #expect(byClean.lastRecordedSighting(in: index)?.0 == byRecord.lastRecordedSighting(in: index)?.0)
            #expect(byClean.count == byRecord.count)
        }
        #expect(devicesSeen.count == 40)
        #expect(byClean.count == 16)
        for device in devicesSeen {
            let key = AccessoryKey.bluetooth(Build.device(device))
            #expect(byClean[key]?.advertisement == byRecord[key]?.advertisement)
            #expect(byClean[key]?.advertisingInterval(configuration) == byRecord[key]?.advertisingInterval(configuration))
            #expect(byClean[key]?.lastMatched == byRecord[key]?.lastMatched)
        }
        #expect(byClean.nextDeadline() == byRecord.nextDeadline())
    }

    @Test func theSlotIndexFindsWhatADictionaryWould() {
        var index = SlotIndex()
        var model: [AccessoryKey: Int] = [:]
        // A fixed linear congruential sequence: the same keys and order on every run.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for step in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let n = state >> 54  // 1,024 distinct keys, so removals often hit
            let key: AccessoryKey = n & 1 == 0 ? .bluetooth(Build.device(n)) : .wifi(BSSID(rawValue: n)!)
            if state >> 20 & 3 == 0 {
                index.remove(key)
                model[key] = nil
            } else {
                index.insert(key, slot: step)
                model[key] = step
            }
            #expect(index[key] == model[key])
            #expect(index.count == model.count)
        }
        for (key, slot) in model { #expect(index[key] == slot) }
        #expect(index[.bluetooth(Build.device(0xFFFF_0000_0000))] == nil)
    }
}
