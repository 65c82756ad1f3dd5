/// What the registry knows about one device nearby.
public struct TrackedAccessory: Sendable {
    public let key: AccessoryKey
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

    /// The smoothed RSSI (signal for Wi-Fi), rounded to whole dBm.
    public var rssi: Int? { smoothedRSSI256.map { ($0 + 128) >> 8 } }

    /// The descriptors this accessory is present for.
    public var matches: Set<DescriptorMatch> { Set(lastMatched.keys) }

    public var isPresent: Bool { !lastMatched.isEmpty }

    /// The learned advertising interval, once there are enough adverts to tell.
    public func advertisingInterval(_ configuration: PresenceConfiguration) -> Duration? {
        interval.learned(needed: configuration.intervalSamplesNeeded).map { .nanoseconds(Int64(clamping: $0)) }
    }

    mutating func smooth(_ sample: Int, weightPercent: Int) {
        let scaled = sample << 8
        smoothedRSSI256 = smoothedRSSI256.map { $0 + (scaled - $0) * weightPercent / 100 } ?? scaled
    }
}
