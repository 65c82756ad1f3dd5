/// Learns how often a device advertises: the longest of its recent gaps, so a
/// device that sometimes skips an advert is not declared lost for it.
struct AdvertisingInterval: Sendable {
    private var gaps: [UInt64] = []
    private var next = 0
    private(set) var lastAdvert: MonotonicInstant?

    /// Notes an advert (not a scan response, which answers the same event).
    mutating func record(_ instant: MonotonicInstant, window: Int) {
        // Room for the whole window at the first advert, so later ones never allocate.
        if lastAdvert == nil { gaps.reserveCapacity(window) }
        if let lastAdvert, instant > lastAdvert {
            let gap = instant.nanoseconds - lastAdvert.nanoseconds
            if gaps.count < window {
                gaps.append(gap)
            } else {
                gaps[next] = gap
                next = (next + 1) % window
            }
        }
        lastAdvert = instant
    }

    /// As new, keeping the gaps' storage: an evicted device's entry is reused for the next new one.
    mutating func reset() {
        gaps.removeAll(keepingCapacity: true)
        next = 0
        lastAdvert = nil
    }

    /// The learned interval in nanoseconds, once `needed` gaps are known.
    func learned(needed: Int) -> UInt64? {
        gaps.count >= needed ? gaps.max() : nil
    }
}
