/// What the registry knows about one device nearby.
public struct TrackedAccessory: Sendable {
    /// Changes only when the registry reuses a released entry for another device (`reuse`).
    public private(set) var key: AccessoryKey
    /// The latest advertisement with scan responses merged in (Bluetooth).
    public internal(set) var advertisement: Advertisement?
    /// The latest BSS as heard (Wi-Fi).
    public internal(set) var network: WiFiNetwork?
    public internal(set) var firstHeard: MonotonicInstant
    public internal(set) var lastHeard: MonotonicInstant
    /// An exponential moving average of the RSSI (signal for Wi-Fi), in 1/256 dBm:
    /// integer arithmetic, because Core links no maths library.
    var smoothedRSSI256: Int?
    /// When each descriptor last matched; a descriptor is present while it keeps matching.
    public internal(set) var lastMatched: [DescriptorMatch: MonotonicInstant]
    var interval: AdvertisingInterval
    /// What the index found the merged advertisement's data matches (before
    /// RSSI), and the index's stamp then: reused while neither changes.
    var candidates: [MatchingIndex.Candidate] = []
    var candidatesStamp: UInt64?

    init(key: AccessoryKey, at instant: MonotonicInstant) {
        self.key = key
        firstHeard = instant
        lastHeard = instant
        lastMatched = [:]
        interval = AdvertisingInterval()
    }

    /// This entry as `init(key:at:)` makes it, keeping the storage of its
    /// advertisement, gaps and candidates: a crowd past the registry's
    /// capacity evicts an entry for every new device, and freeing one
    /// entry's buffers to allocate the next's cost more than the report.
    /// The advertisement stays until `heardNew` rewrites it.
    mutating func reuse(key: AccessoryKey, at instant: MonotonicInstant) {
        self.key = key
        network = nil
        firstHeard = instant
        lastHeard = instant
        smoothedRSSI256 = nil
        // A fresh empty table, as a new entry has: a kept one could list its keys in another order.
        if !lastMatched.isEmpty { lastMatched = [:] }
        interval.reset()
        candidates.removeAll(keepingCapacity: true)
        candidatesStamp = nil
    }

    /// `reuse` for an entry evicted to make room: returns the key it had
    /// and, when it was present, the descriptors it is lost for.
    mutating func takeOver(key: AccessoryKey, at instant: MonotonicInstant) -> (AccessoryKey, Set<DescriptorMatch>?) {
        let evicted = (self.key, isPresent ? matches : nil)
        reuse(key: key, at: instant)
        return evicted
    }

    /// The smoothed RSSI (signal for Wi-Fi), rounded to whole dBm.
    public var rssi: Int? { smoothedRSSI256.map { ($0 + 128) >> 8 } }

    /// The descriptors this accessory is present for.
    public var matches: Set<DescriptorMatch> { Set(lastMatched.keys) }

    public var isPresent: Bool { !lastMatched.isEmpty }

    /// What `index.matches(advertisement, rssi: rssi)` finds, taken from the
    /// candidates kept for the merged advertisement when they are the
    /// index's current ones (they are after each record), so the monitor
    /// does not match every report a second time.
    public func matches(at rssi: Int?, in index: MatchingIndex) -> Set<DescriptorMatch> {
        guard candidatesStamp == index.stamp else {
            return advertisement.map { index.matches($0, rssi: rssi) } ?? []
        }
        var result = Set<DescriptorMatch>()
        var position = 0
        while position < candidates.count {
            if candidates[position].admits(rssi: rssi) { result.insert(candidates[position].match) }
            position += 1
        }
        return result
    }

    /// The merged advertisement and what it matches at the RSSI of its
    /// last report: the registry's `lastRecordedSighting`. Mutating only so
    /// that callers reach it in place (see there); it changes nothing.
    mutating func sighting(in index: MatchingIndex) -> (Advertisement, Set<DescriptorMatch>)? {
        guard let advertisement else { return nil }
        return (advertisement, matches(at: advertisement.rssi.map(Int.init), in: index))
    }

    /// The learned advertising interval, once there are enough adverts to tell.
    public func advertisingInterval(_ configuration: PresenceConfiguration) -> Duration? {
        interval.learned(needed: configuration.intervalSamplesNeeded).map { .nanoseconds(Int64(clamping: $0)) }
    }

    /// What a Bluetooth report does once the advertisement is merged (or
    /// found unchanged): the interval, the RSSI, the matches. Returns the
    /// descriptors the device newly matches.
    mutating func heard(
        _ facts: AdvertisingReportFacts, at now: MonotonicInstant, dataChanged: Bool, index: MatchingIndex,
        configuration: PresenceConfiguration
    ) -> Set<DescriptorMatch> {
        if !facts.isScanResponse { interval.record(now, window: configuration.intervalWindow) }
        if let rssi = facts.rssi { smooth(Int(rssi), weightPercent: configuration.rssiSmoothingPercent) }
        if dataChanged || candidatesStamp != index.stamp, let data = advertisement?.data {
            index.candidates(data, into: &candidates)
            candidatesStamp = index.stamp
        }
        lastHeard = now
        var appeared = Set<DescriptorMatch>()
        let rssi = rssi
        // A while loop: an unoptimised build's array iterator allocates.
        var index = 0
        while index < candidates.count {
            let candidate = candidates[index]
            if candidate.admits(rssi: rssi), lastMatched.updateValue(now, forKey: candidate.match) == nil {
                appeared.insert(candidate.match)
            }
            index += 1
        }
        return appeared
    }

    /// `heard` for a clean report of this device: taken as a repeat when its
    /// AD is byte for byte the last of its kind, else merged in place from
    /// `parse`; nil, changing nothing, when there is no advertisement yet.
    mutating func heardKnown(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, at now: MonotonicInstant,
        index: MatchingIndex, configuration: PresenceConfiguration, parse: () -> AdvertisingData
    ) -> (appeared: Set<DescriptorMatch>, present: Bool)? {
        let changed: Bool
        if advertisement?.lastPayload(for: facts, equals: payload) == true {
            advertisement!.note(facts)
            changed = false
        } else {
            guard advertisement?.device == facts.device else { return nil }
            advertisement!.merge(facts, data: parse(), payload: payload)
            changed = true
        }
        let appeared = heard(facts, at: now, dataChanged: changed, index: index, configuration: configuration)
        return (appeared, isPresent)
    }

    /// `heard` for a clean report of a device new to the registry: the
    /// advertisement becomes what `Advertisement(report)` would be, written
    /// into the storage this entry already holds when it was reused.
    mutating func heardNew(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, at now: MonotonicInstant,
        index: MatchingIndex, configuration: PresenceConfiguration, parse: () -> AdvertisingData
    ) -> (appeared: Set<DescriptorMatch>, present: Bool) {
        // A tag test: `advertisement == nil` went through the Optional's value
        // witnesses and copied the advertisement (~500 instructions a new device, callgrind, issue 25).
        if case .none = advertisement { advertisement = Advertisement(device: facts.device) }
        advertisement!.becomeFirst(facts, data: parse(), payload: payload)
        let appeared = heard(facts, at: now, dataChanged: true, index: index, configuration: configuration)
        return (appeared, isPresent)
    }

    mutating func smooth(_ sample: Int, weightPercent: Int) {
        let scaled = sample << 8
        smoothedRSSI256 = smoothedRSSI256.map { $0 + (scaled - $0) * weightPercent / 100 } ?? scaled
    }
}
