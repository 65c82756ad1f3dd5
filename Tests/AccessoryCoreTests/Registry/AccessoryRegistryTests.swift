import Testing
@testable import AccessoryCore

@Suite struct AccessoryRegistryTests {
    let apple: UInt16 = 0x004C
    let match = DescriptorMatch(app: "acme", descriptorID: 1)

    func index() throws -> MatchingIndex {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "acme")
        return index
    }

    var beacon: AdvertisingData { AdvertisingData(completeLocalName: Build.name("Acme"), manufacturerData: [apple: [0x02, 0x15]]) }

    /// Feeds one advert every `interval` for `count` adverts, expiring each
    /// millisecond-free step in between; returns the events seen.
    func advertise(
        _ registry: inout AccessoryRegistry, _ clock: ManualClock, index: MatchingIndex,
        every interval: Duration, count: Int, device: UInt64 = 1
    ) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        for _ in 0..<count {
            events += registry.record(Build.advertisement(device, beacon), at: clock.now, matchingWith: index)
            clock.advance(by: interval)
            events += registry.expire(at: clock.now)
        }
        return events
    }

    @Test func appearsOnFirstMatchOnly() throws {
        let clock = ManualClock()
        var registry = AccessoryRegistry()
        let events = advertise(&registry, clock, index: try index(), every: .milliseconds(100), count: 50)
        #expect(events == [PresenceEvent(kind: .appeared, accessory: .bluetooth(Build.device(1)), matches: [match], at: .zero)])
    }

    @Test func fastAdvertiserIsLostWithinTheFloorAfterGoingQuiet() throws {
        let clock = ManualClock()
        var registry = AccessoryRegistry()
        _ = advertise(&registry, clock, index: try index(), every: .milliseconds(100), count: 50)
        let lastHeard = try #require(registry[.bluetooth(Build.device(1))]).lastHeard
        #expect(registry[.bluetooth(Build.device(1))]?.advertisingInterval(registry.configuration) == .milliseconds(100))
        var lostAt: MonotonicInstant?
        while lostAt == nil, clock.now < lastHeard.advanced(by: .seconds(60)) {
            clock.advance(by: .milliseconds(100))
            let events = registry.expire(at: clock.now)
            if events.contains(where: { $0.kind == .lost(.silent) && $0.matches == [match] }) { lostAt = clock.now }
        }
        let lost = try #require(lostAt)
        // 3 × 100 ms is below the floor, so the floor (3 s) decides.
        #expect(lost.duration(since: lastHeard) == registry.configuration.lossFloor)
        #expect(registry.count == 0)
        #expect(registry.nextDeadline() == nil)
    }

    @Test func slowAdvertiserIsNotLostBetweenAdverts() throws {
        let clock = ManualClock()
        var registry = AccessoryRegistry()
        let idx = try index()
        var events: [PresenceEvent] = []
        for _ in 0..<30 {
            events += registry.record(Build.advertisement(1, beacon), at: clock.now, matchingWith: idx)
            for _ in 0..<10 {
                clock.advance(by: .seconds(1))
                events += registry.expire(at: clock.now)
            }
        }
        #expect(events.count == 1)
        #expect(events.first?.kind == .appeared)
        #expect(registry[.bluetooth(Build.device(1))]?.advertisingInterval(registry.configuration) == .seconds(10))
        // And it is lost once silent for three intervals.
        clock.advance(by: .seconds(19))
        #expect(registry.expire(at: clock.now).isEmpty)
        #expect(registry.nextDeadline() == clock.now.advanced(by: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(registry.expire(at: clock.now).map(\.kind) == [.lost(.silent)])
    }

    @Test func missedAdvertDoesNotCauseLossBecauseTheLongestGapIsLearned() throws {
        let clock = ManualClock()
        var registry = AccessoryRegistry(configuration: PresenceConfiguration(lossFloor: .milliseconds(100)))
        let idx = try index()
        var events: [PresenceEvent] = []
        for gap in [2, 2, 4, 2, 2, 2, 6, 2, 2] as [Int64] {
            events += registry.record(Build.advertisement(1, beacon), at: clock.now, matchingWith: idx)
            clock.advance(by: .seconds(gap))
            events += registry.expire(at: clock.now)
        }
        #expect(events.map(\.kind) == [.appeared])
    }

    @Test func ceilingBoundsAVerySlowAdvertiser() throws {
        let clock = ManualClock()
        let configuration = PresenceConfiguration(lossCeiling: .seconds(120))
        var registry = AccessoryRegistry(configuration: configuration)
        let idx = try index()
        for _ in 0..<3 {
            _ = registry.record(Build.advertisement(1, beacon), at: clock.now, matchingWith: idx)
            clock.advance(by: .seconds(100))
        }
        // Learned 100 s × 3 = 300 s, capped at 120 s after the last advert (heard 100 s ago).
        clock.advance(by: .seconds(19))
        #expect(registry.expire(at: clock.now).isEmpty)
        clock.advance(by: .seconds(1))
        #expect(registry.expire(at: clock.now).map(\.kind) == [.lost(.silent)])
    }

    @Test func scanResponseMergesAndCanCompleteTheMatch() throws {
        let clock = ManualClock()
        var registry = AccessoryRegistry()
        let idx = try index()
        let advert = Build.advertisement(1, properties: [.connectable, .scannable, .legacy], AdvertisingData(manufacturerData: [apple: [0x02]]))
        #expect(registry.record(advert, at: clock.now, matchingWith: idx).isEmpty, "no name yet")
        clock.advance(by: .milliseconds(2))
        let response = Build.advertisement(1, properties: [.scanResponse, .legacy], AdvertisingData(completeLocalName: Build.name("Acme 1")))
        let events = registry.record(response, at: clock.now, matchingWith: idx)
        #expect(events.map(\.kind) == [.appeared])
        let tracked = try #require(registry[.bluetooth(Build.device(1))])
        #expect(tracked.advertisement?.data.localName == "Acme 1")
        #expect(tracked.advertisement?.data.manufacturerData[apple] == [0x02])
        #expect(tracked.advertisement?.properties == [.connectable, .scannable, .legacy])
        #expect(tracked.advertisingInterval(registry.configuration) == nil, "a scan response is not a new advert")
    }

    @Test func rssiIsSmoothedAndRangeJudgedOnTheAverage() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme", bluetoothRange: .immediate), id: 1, app: "acme")
        var registry = AccessoryRegistry(configuration: PresenceConfiguration(rssiSmoothingPercent: 50))
        let clock = ManualClock()
        var events: [PresenceEvent] = []
        for rssi in [-80, -40, -80] as [Int8] {  // one strong packet among weak ones
            events += registry.record(Build.advertisement(1, rssi: rssi, beacon), at: clock.now, matchingWith: index)
            clock.advance(by: .milliseconds(100))
        }
        #expect(events.isEmpty)
        #expect(registry[.bluetooth(Build.device(1))]?.rssi == -70)
        for _ in 0..<6 {  // it is brought close
            events += registry.record(Build.advertisement(1, rssi: -40, beacon), at: clock.now, matchingWith: index)
            clock.advance(by: .milliseconds(100))
        }
        #expect(events.map(\.kind) == [.appeared])
    }

    /// What the monitor shows with each sighting: the same as matching the
    /// merged advertisement again at that RSSI, taken from what the record kept.
    @Test func aTrackedDevicesMatchesAtAnRSSIAreWhatTheIndexFinds() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme", bluetoothRange: .immediate), id: 1, app: "acme")
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 2, app: "acme")
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Other"), id: 3, app: "other")
        var registry = AccessoryRegistry()
        _ = registry.record(Build.advertisement(1, rssi: -80, beacon), at: .zero, matchingWith: index)
        let tracked = try #require(registry[.bluetooth(Build.device(1))])
        let merged = try #require(tracked.advertisement)
        for rssi in [-90, -40, nil] as [Int?] {
            #expect(tracked.matches(at: rssi, in: index) == index.matches(merged, rssi: rssi))
        }
        #expect(tracked.matches(at: -40, in: index) == [match, DescriptorMatch(app: "acme", descriptorID: 2)])
        #expect(tracked.matches(at: -90, in: index) == [DescriptorMatch(app: "acme", descriptorID: 2)])

        // The index changed since the record: matched again, not from stale candidates.
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Ac"), id: 4, app: "other")
        #expect(tracked.matches(at: -90, in: index).contains(DescriptorMatch(app: "other", descriptorID: 4)))
    }

    @Test func descriptorThatStopsMatchingIsLostWhileTheDeviceStaysHeard() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothManufacturerDataBlob: [0x01], bluetoothManufacturerDataMask: [0xFF]), id: 1, app: "acme")
        var registry = AccessoryRegistry()
        let clock = ManualClock()
        var events: [PresenceEvent] = []
        for step in 0..<100 {  // the accessory leaves pairing mode (0x01 → 0x00) after 1 s
            let mode: UInt8 = step < 10 ? 0x01 : 0x00
            events += registry.record(Build.advertisement(1, AdvertisingData(manufacturerData: [apple: [mode]])), at: clock.now, matchingWith: index)
            clock.advance(by: .milliseconds(100))
            events += registry.expire(at: clock.now)
        }
        #expect(events.map(\.kind) == [.appeared, .lost(.silent)])
        #expect(registry.count == 1, "still heard, so still tracked")
        #expect(registry[.bluetooth(Build.device(1))]?.isPresent == false)
    }

    @Test func crowdOfTenThousandAddressesStaysWithinTheCap() throws {
        let idx = try index()
        var registry = AccessoryRegistry(configuration: PresenceConfiguration(capacity: 500))
        let clock = ManualClock()
        var events = registry.record(Build.advertisement(0xACE, beacon), at: clock.now, matchingWith: idx)
        for n in 0..<10_000 as Range<UInt64> {
            clock.advance(by: .milliseconds(1))
            let phone = Build.advertisement(0x1_0000 + n, AdvertisingData(manufacturerData: [0x0006: [UInt8(n & 0xFF)]]))
            events += registry.record(phone, at: clock.now, matchingWith: idx)
            #expect(registry.count <= 500)
            if n % 1000 == 0 {  // the accessory keeps advertising now and then
                events += registry.record(Build.advertisement(0xACE, beacon), at: clock.now, matchingWith: idx)
            }
        }
        #expect(registry.count == 500)
        #expect(registry[.bluetooth(Build.device(0xACE))]?.isPresent == true, "unmatched devices are evicted first")
        #expect(registry[.bluetooth(Build.device(0x1_0000 + 9_999))] != nil, "the most recent stays")
        #expect(registry[.bluetooth(Build.device(0x1_0000))] == nil, "the least recently heard went first")
        #expect(events.map(\.kind) == [.appeared])
    }

    @Test func matchedDevicesAreEvictedLeastRecentlyHeardFirstWhenAllMatch() throws {
        let idx = try index()
        var registry = AccessoryRegistry(configuration: PresenceConfiguration(capacity: 3))
        let clock = ManualClock()
        var events: [PresenceEvent] = []
        for n in 1...3 as ClosedRange<UInt64> {
            events += registry.record(Build.advertisement(n, beacon), at: clock.now, matchingWith: idx)
            clock.advance(by: .seconds(1))
        }
        events += registry.record(Build.advertisement(1, beacon), at: clock.now, matchingWith: idx)  // 1 is fresh again
        clock.advance(by: .seconds(1))
        events += registry.record(Build.advertisement(4, beacon), at: clock.now, matchingWith: idx)
        #expect(events.suffix(2) == [
            PresenceEvent(kind: .lost(.evicted), accessory: .bluetooth(Build.device(2)), matches: [match], at: clock.now),
            PresenceEvent(kind: .appeared, accessory: .bluetooth(Build.device(4)), matches: [match], at: clock.now),
        ])
        #expect(Set(registry.accessories.map(\.key)) == [.bluetooth(Build.device(1)), .bluetooth(Build.device(3)), .bluetooth(Build.device(4))])
    }

    @Test func eventsCarryOnlyEachAppsOwnDescriptors() throws {
        var index = MatchingIndex()
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Acme"), id: 1, app: "a")
        try index.insert(.init(bluetoothCompanyIdentifier: apple, bluetoothNameSubstring: "Ac"), id: 1, app: "b")
        var registry = AccessoryRegistry()
        let events = registry.record(Build.advertisement(1, beacon), at: .zero, matchingWith: index)
        #expect(events.count == 1)
        #expect(events[0].restricted(to: "a")?.matches == [DescriptorMatch(app: "a", descriptorID: 1)])
        #expect(events[0].restricted(to: "b")?.matches == [DescriptorMatch(app: "b", descriptorID: 1)])
        #expect(events[0].restricted(to: "c") == nil)
        registry.forgetAll(of: "a")
        #expect(registry[.bluetooth(Build.device(1))]?.matches == [DescriptorMatch(app: "b", descriptorID: 1)])
        index.removeAll(of: "b")
        registry.forget(DescriptorMatch(app: "b", descriptorID: 1))
        #expect(registry[.bluetooth(Build.device(1))]?.isPresent == false)
    }

    @Test func wifiAccessoriesAreKeyedByBSSIDAndLearnTheScanInterval() throws {
        var index = MatchingIndex()
        try index.insert(.init(ssidPrefix: Array("ACME-".utf8)), id: 2, app: "acme")
        var registry = AccessoryRegistry()
        let clock = ManualClock()
        var events: [PresenceEvent] = []
        for _ in 0..<10 {
            events += registry.record(Build.network(Array("ACME-1".utf8), bssid: 0x0200_0000_0001), at: clock.now, matchingWith: index)
            events += registry.record(Build.network(Array("Home".utf8), bssid: 0x0200_0000_0002), at: clock.now, matchingWith: index)
            for _ in 0..<30 {
                clock.advance(by: .seconds(1))
                events += registry.expire(at: clock.now)
            }
        }
        #expect(events == [PresenceEvent(kind: .appeared, accessory: .wifi(BSSID(rawValue: 0x0200_0000_0001)!),
                                         matches: [DescriptorMatch(app: "acme", descriptorID: 2)], at: .zero)])
        #expect(registry.count == 2)
        #expect(registry[.wifi(BSSID(rawValue: 0x0200_0000_0001)!)]?.advertisingInterval(registry.configuration) == .seconds(30))
    }
}

@Suite struct WiFiCacheAgeTests {
    /// nl80211 keeps reporting a BSS it no longer hears, with a growing age:
    /// those reports must not keep the accessory present.
    @Test func staleCacheEntriesDoNotRefreshPresence() throws {
        var index = MatchingIndex()
        try index.insert(.init(ssidPrefix: Array("ACME-".utf8)), id: 2, app: "acme")
        var registry = AccessoryRegistry()
        let clock = ManualClock()
        var events: [PresenceEvent] = []
        var network = Build.network(Array("ACME-1".utf8))
        for age in [0, 30_000, 60_000] as [UInt32] {  // heard once, then only the cache
            network.seenMillisecondsAgo = age
            events += registry.record(network, at: clock.now, matchingWith: index)
            clock.advance(by: .seconds(30))
            events += registry.expire(at: clock.now)
        }
        #expect(events.map(\.kind) == [.appeared, .lost(.silent)])
        #expect(events.last?.at == MonotonicInstant.zero.advanced(by: .seconds(60)), "lost at the unlearned timeout after the one real sighting")
    }

    @Test func ageIsSubtractedFromTheScanTime() throws {
        var registry = AccessoryRegistry()
        var network = Build.network(Array("Home".utf8))
        network.seenMillisecondsAgo = 1_500
        _ = registry.record(network, at: MonotonicInstant.zero.advanced(by: .seconds(10)), matchingWith: MatchingIndex())
        #expect(registry[.wifi(network.bssid)]?.lastHeard == MonotonicInstant.zero.advanced(by: .milliseconds(8_500)))
    }
}

@Suite struct MonotonicInstantTests {
    @Test func arithmeticSaturates() {
        let t = MonotonicInstant(nanoseconds: 5)
        #expect(t.advanced(by: .nanoseconds(-10)) == .zero)
        #expect(MonotonicInstant(nanoseconds: .max - 1).advanced(by: .seconds(1)).nanoseconds == .max)
        #expect(t.advanced(by: .milliseconds(1)).duration(since: t) == .milliseconds(1))
        #expect(t.duration(since: t.advanced(by: .seconds(1))) == .zero)
        #expect(MonotonicInstant(nanoseconds: 1_234_000_000).description == "1.234s")
    }

    @Test func manualClockNeverGoesBack() {
        let clock = ManualClock(MonotonicInstant(nanoseconds: 100))
        clock.advance(to: MonotonicInstant(nanoseconds: 50))
        #expect(clock.now.nanoseconds == 100)
        clock.advance(by: .nanoseconds(5))
        #expect(clock.now.nanoseconds == 105)
    }
}
