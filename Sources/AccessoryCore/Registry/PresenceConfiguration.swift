/// How the registry decides that an accessory has gone, and how much it may hold.
///
/// An accessory is lost when it has been silent (or stopped matching) for
/// longer than `intervalMultiplier` times its learned advertising interval,
/// kept between `lossFloor` and `lossCeiling`; until an interval is learned,
/// `unlearnedTimeout` applies. This is Home Assistant's interval-learning
/// idea: a beacon heard every 100 ms is missed after seconds, a sensor that
/// wakes every minute is not declared gone between wake-ups.
public struct PresenceConfiguration: Hashable, Sendable {
    /// The most devices tracked at once; beyond it the least recently heard is evicted.
    public var capacity: Int
    public var lossFloor: Duration
    public var lossCeiling: Duration
    public var intervalMultiplier: Int
    public var unlearnedTimeout: Duration
    /// How many recent gaps between adverts the interval is learned from (their maximum).
    public var intervalWindow: Int
    /// Gaps needed before the learned interval is trusted.
    public var intervalSamplesNeeded: Int
    /// The weight of the newest RSSI sample in the moving average, in percent (1...100).
    public var rssiSmoothingPercent: Int

    public init(
        capacity: Int = 4096,
        lossFloor: Duration = .seconds(3),
        lossCeiling: Duration = .seconds(900),
        intervalMultiplier: Int = 3,
        unlearnedTimeout: Duration = .seconds(60),
        intervalWindow: Int = 8,
        intervalSamplesNeeded: Int = 2,
        rssiSmoothingPercent: Int = 30
    ) {
        self.capacity = max(1, capacity)
        self.lossFloor = lossFloor
        self.lossCeiling = max(lossCeiling, lossFloor)
        self.intervalMultiplier = max(1, intervalMultiplier)
        self.unlearnedTimeout = unlearnedTimeout
        self.intervalWindow = max(1, intervalWindow)
        self.intervalSamplesNeeded = min(max(1, intervalSamplesNeeded), max(1, intervalWindow))
        self.rssiSmoothingPercent = min(max(rssiSmoothingPercent, 1), 100)
    }

    /// How long a device with this learned interval may stay silent.
    func allowedSilence(interval: UInt64?) -> UInt64 {
        let floor = UInt64(max(0, lossFloor.nanosecondsSaturating))
        let ceiling = UInt64(max(0, lossCeiling.nanosecondsSaturating))
        let wanted: UInt64
        if let interval {
            let (product, overflow) = interval.multipliedReportingOverflow(by: UInt64(intervalMultiplier))
            wanted = overflow ? .max : product
        } else {
            wanted = UInt64(max(0, unlearnedTimeout.nanosecondsSaturating))
        }
        return min(max(wanted, floor), ceiling)
    }
}
