/// Everything the agent has heard nearby, and which apps' descriptors each
/// device is present for. Pure: time comes in as an argument, from whatever
/// `MonotonicClock` the caller holds.
///
/// - Bluetooth devices are keyed by address and type; a scan response is
///   merged into the device's advertisement before matching, since it often
///   carries the name a descriptor asks for. Wi-Fi accessories are keyed by BSSID.
/// - Range and minimum RSSI are judged on a moving average, so one strong
///   packet does not make a far device `.immediate`.
/// - A device `appeared` for a descriptor the first time it matches it, and is
///   `lost` for it once it has not matched it for longer than its learned
///   interval allows (see `PresenceConfiguration`).
/// - The table is bounded: when full, the least recently heard device that
///   matches nothing is evicted first, and only when every tracked device
///   matches something, the least recently heard of those (reported `lost`
///   with reason `.evicted`), so a crowd of phones cannot push out the
///   accessories apps care about.
public struct AccessoryRegistry: Sendable {
    public let configuration: PresenceConfiguration

    private var slots: [TrackedAccessory?] = []
    private var freeSlots: [Int] = []
    private var slotByKey = SlotIndex()
    private var recency = RecencyLists(lists: 2)
    /// The slot of the Bluetooth device recorded last, for `lastRecordedSighting`.
    private var lastRecordedSlot = Int.max
    /// The entry released last, kept for `recordClean` to reuse its storage for a new device.
    private var spare: TrackedAccessory?
    private static let unmatchedList = 0
    private static let matchedList = 1

    public init(configuration: PresenceConfiguration = PresenceConfiguration()) {
        self.configuration = configuration
    }

    public var count: Int { slotByKey.count }

    public subscript(key: AccessoryKey) -> TrackedAccessory? {
        slotByKey[key].flatMap { slots[$0] }
    }

    /// Every tracked device, in no particular order.
    public var accessories: [TrackedAccessory] { slots.compactMap { $0 } }

    /// Notes an advertising report or scan response heard at `now`, matches
    /// the device's merged advertisement against `index`, and returns what changed.
    public mutating func record(
        _ report: Advertisement, at now: MonotonicInstant, matchingWith index: MatchingIndex
    ) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        let slot = slot(for: .bluetooth(report.device), at: now, events: &events)
        var tracked = slots[slot]!
        slots[slot] = nil  // keeps the copy unique while it changes
        if tracked.advertisement == nil {
            tracked.advertisement = report
        } else {
            tracked.advertisement!.merge(report)
        }
        let appeared = tracked.heard(
            report.facts, at: now, dataChanged: true, index: index, configuration: configuration)
        let present = tracked.isPresent
        slots[slot] = tracked
        lastRecordedSlot = slot
        announce(appeared, of: .bluetooth(report.device), present: present, slot: slot, at: now, events: &events)
        return events
    }

    /// Notes a clean report of a device already known, in one look-up. When
    /// its AD is byte for byte what the device sent last of its kind
    /// (advertising PDU or scan response) it is neither parsed nor matched
    /// again: the merged data cannot have changed, so only the radio facts,
    /// the interval, the RSSI and presence are updated, and the matches found
    /// for that data are reused while the index is the same. Otherwise
    /// `parse` gives that AD parsed, which is merged into the device's
    /// advertisement where it lies and `payload` copied into the bytes it
    /// already holds (once they are large enough nothing is allocated); then
    /// it is matched and presence updated as `record` does. Returns nil,
    /// changing nothing and calling no `parse`, when the device is not known:
    /// `record` the parsed advertisement then.
    public mutating func recordKnown(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, at now: MonotonicInstant,
        matchingWith index: MatchingIndex, parse: () -> AdvertisingData
    ) -> [PresenceEvent]? {
        let configuration = configuration
        // Changed where it lies: a copy of the device's entry would retain and release every table in it.
        guard let slot = slotByKey[.bluetooth(facts.device)],
            let (appeared, present) = slots[slot]?.heardKnown(
                facts, payload: payload, at: now, index: index, configuration: configuration, parse: parse)
        else { return nil }
        lastRecordedSlot = slot
        var events: [PresenceEvent] = []
        announce(appeared, of: .bluetooth(facts.device), present: present, slot: slot, at: now, events: &events)
        return events
    }

    /// `recordKnown`, and for a device not known yet what `record` does with
    /// the advertisement of this clean report, without making it first: the
    /// new entry reuses the storage of the one released last (past the
    /// capacity, the device just evicted), `parse`'s data is copied into it.
    public mutating func recordClean(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, at now: MonotonicInstant,
        matchingWith index: MatchingIndex, parse: () -> AdvertisingData
    ) -> [PresenceEvent] {
        if let events = recordKnown(facts, payload: payload, at: now, matchingWith: index, parse: parse) { return events }
        var events: [PresenceEvent] = []
        let key = AccessoryKey.bluetooth(facts.device)
        // Not known: every Bluetooth entry has its advertisement from its first report.
        let slot = newSlot(for: key, at: now, reusing: true, events: &events)
        let configuration = configuration
        let (appeared, present) = slots[slot]!.heardNew(
            facts, payload: payload, at: now, index: index, configuration: configuration, parse: parse)
        lastRecordedSlot = slot
        announce(appeared, of: key, present: present, slot: slot, at: now, events: &events)
        return events
    }

    /// The merged advertisement of the Bluetooth device recorded last, and
    /// what it matches at the RSSI of its last report (see
    /// `TrackedAccessory.matches(at:in:)`): what the monitor shows, read
    /// without looking the device up again or copying its entry.
    public mutating func lastRecordedSighting(in index: MatchingIndex) -> (Advertisement, Set<DescriptorMatch>)? {
        guard lastRecordedSlot < slots.count else { return nil }
        // Mutating, so the entry is reached where it lies: read through the
        // array (or its buffer) the whole entry was copied out, twice, ~700
        // instructions a line of `--monitor` (callgrind, issue 25).
        return slots[lastRecordedSlot]?.sighting(in: index)
    }

    /// Notes a BSS from a scan finished at `now`, matches it against `index`,
    /// and returns what changed. The kernel keeps BSSes it heard in earlier
    /// scans and reports how long ago it last heard each
    /// (`seenMillisecondsAgo`): the BSS counts as heard at `now` minus that
    /// age, so a stale cache entry neither refreshes presence nor teaches a
    /// false interval.
    public mutating func record(
        _ network: WiFiNetwork, at now: MonotonicInstant, matchingWith index: MatchingIndex
    ) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        let heard = network.seenMillisecondsAgo.map { now.advanced(by: .milliseconds(-Int64($0))) } ?? now
        let isNew = slotByKey[.wifi(network.bssid)] == nil
        // A BSS the cache has held longer than an unknown device may stay silent is not nearby.
        if isNew, Self.silence(from: heard, to: now) >= configuration.allowedSilence(interval: nil) { return [] }
        let slot = slot(for: .wifi(network.bssid), at: heard, events: &events)
        var tracked = slots[slot]!
        slots[slot] = nil
        tracked.network = network
        if isNew || heard > tracked.lastHeard {
            tracked.interval.record(heard, window: configuration.intervalWindow)
            if let signal = network.signalDBm { tracked.smooth(signal, weightPercent: configuration.rssiSmoothingPercent) }
            var judged = network
            judged.signalDBm = tracked.rssi
            let matched = index.matches(judged)
            touch(&tracked, slot: slot, at: heard, matched: matched, events: &events)
        }
        slots[slot] = tracked
        return events
    }

    /// Reports `lost` for every descriptor a device has not matched for longer
    /// than it may, and drops devices silent for that long.
    public mutating func expire(at now: MonotonicInstant) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        for slot in slots.indices {
            guard var tracked = slots[slot] else { continue }
            let allowed = allowedSilence(tracked)
            var gone = Set<DescriptorMatch>()
            for (match, instant) in tracked.lastMatched where Self.silence(from: instant, to: now) >= allowed {
                gone.insert(match)
            }
            let silent = Self.silence(from: tracked.lastHeard, to: now) >= allowed
            if silent { gone.formUnion(tracked.lastMatched.keys) }
            if !gone.isEmpty {
                events.append(PresenceEvent(kind: .lost(.silent), accessory: tracked.key, matches: gone, at: now))
            }
            if silent {
                release(slot)
            } else if !gone.isEmpty {
                for match in gone { tracked.lastMatched[match] = nil }
                slots[slot] = tracked
                relist(slot, present: tracked.isPresent)
            }
        }
        return events
    }

    /// The earliest instant at which `expire` will have something to do, for
    /// the daemon's timer; nil when nothing is tracked.
    public func nextDeadline() -> MonotonicInstant? {
        var earliest: MonotonicInstant?
        for case let tracked? in slots {
            let since = tracked.lastMatched.values.min().map { min($0, tracked.lastHeard) } ?? tracked.lastHeard
            let deadline = since.advanced(by: .nanoseconds(Int64(clamping: allowedSilence(tracked))))
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Drops a descriptor that was removed from the index, without events: its app asked for it.
    public mutating func forget(_ match: DescriptorMatch) {
        forget { $0 == match }
    }

    /// Drops every descriptor of an app whose session ended.
    public mutating func forgetAll(of app: AppID) {
        forget { $0.app == app }
    }

    private mutating func forget(where shouldForget: (DescriptorMatch) -> Bool) {
        for slot in slots.indices {
            guard var tracked = slots[slot], tracked.lastMatched.keys.contains(where: shouldForget) else { continue }
            slots[slot] = nil
            tracked.lastMatched = tracked.lastMatched.filter { !shouldForget($0.key) }
            slots[slot] = tracked
            relist(slot, present: tracked.isPresent)
        }
    }

    private func allowedSilence(_ tracked: TrackedAccessory) -> UInt64 {
        configuration.allowedSilence(interval: tracked.interval.learned(needed: configuration.intervalSamplesNeeded))
    }

    /// How long `tracked` may stay silent before it counts as gone: the same
    /// rule for an app's granted accessory as for the registry's own presence.
    public func allowedSilence(of tracked: TrackedAccessory) -> Duration {
        .nanoseconds(Int64(clamping: allowedSilence(tracked)))
    }

    private static func silence(from instant: MonotonicInstant, to now: MonotonicInstant) -> UInt64 {
        now > instant ? now.nanoseconds - instant.nanoseconds : 0
    }

    /// The slot of `key`, making room and a fresh entry when it is new.
    private mutating func slot(for key: AccessoryKey, at now: MonotonicInstant, events: inout [PresenceEvent]) -> Int {
        if let slot = slotByKey[key] { return slot }
        return newSlot(for: key, at: now, reusing: false, events: &events)
    }

    /// A fresh entry for `key`, making room first when full; with `reusing`,
    /// the spare entry's storage when there is one (see `TrackedAccessory.reuse`).
    private mutating func newSlot(
        for key: AccessoryKey, at now: MonotonicInstant, reusing: Bool, events: inout [PresenceEvent]
    ) -> Int {
        if reusing, slotByKey.count >= configuration.capacity, let slot = evictionVictim() {
            return takeOver(slot, for: key, at: now, events: &events)
        }
        if slotByKey.count >= configuration.capacity { evictOne(at: now, events: &events) }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            if reusing, spare != nil {
                slots[slot] = spare.take()  // moved in, not copied
                slots[slot]!.reuse(key: key, at: now)
            } else {
                slots[slot] = TrackedAccessory(key: key, at: now)
            }
        } else {
            slot = slots.count
            slots.append(TrackedAccessory(key: key, at: now))
        }
        slotByKey.insert(key, slot: slot)
        recency.moveToFront(slot, list: Self.unmatchedList)
        return slot
    }

    private mutating func touch(
        _ tracked: inout TrackedAccessory, slot: Int, at now: MonotonicInstant,
        matched: Set<DescriptorMatch>, events: inout [PresenceEvent]
    ) {
        tracked.lastHeard = now
        var appeared = Set<DescriptorMatch>()
        for match in matched {
            if tracked.lastMatched.updateValue(now, forKey: match) == nil { appeared.insert(match) }
        }
        announce(appeared, of: tracked.key, present: tracked.isPresent, slot: slot, at: now, events: &events)
    }

    /// Reports the descriptors `key` newly matches, and relists its slot.
    private mutating func announce(
        _ appeared: Set<DescriptorMatch>, of key: AccessoryKey, present: Bool, slot: Int, at now: MonotonicInstant,
        events: inout [PresenceEvent]
    ) {
        if !appeared.isEmpty {
            events.append(PresenceEvent(kind: .appeared, accessory: key, matches: appeared, at: now))
        }
        relist(slot, present: present)
    }

    /// Moves the slot to the front of the list its presence puts it in.
    private mutating func relist(_ slot: Int, present: Bool) {
        recency.moveToFront(slot, list: present ? Self.matchedList : Self.unmatchedList)
    }

    /// The slot `evictOne` empties: the least recently heard device that
    /// matches nothing, else the least recently heard of all.
    private func evictionVictim() -> Int? {
        guard let slot = recency.last(of: Self.unmatchedList) ?? recency.last(of: Self.matchedList), slots[slot] != nil
        else { return nil }
        return slot
    }

    /// What `evictOne` and then `newSlot` reusing the released entry do,
    /// with the victim's entry rewritten where it lies: it would be moved
    /// out, and in again to the same slot (the one freed last), ~300
    /// instructions a report past the capacity (callgrind, issue 25).
    private mutating func takeOver(
        _ slot: Int, for key: AccessoryKey, at now: MonotonicInstant, events: inout [PresenceEvent]
    ) -> Int {
        recency.remove(slot)
        let (evicted, lost) = slots[slot]!.takeOver(key: key, at: now)
        if let lost { events.append(PresenceEvent(kind: .lost(.evicted), accessory: evicted, matches: lost, at: now)) }
        slotByKey.remove(evicted)
        slotByKey.insert(key, slot: slot)
        recency.moveToFront(slot, list: Self.unmatchedList)
        return slot
    }

    private mutating func evictOne(at now: MonotonicInstant, events: inout [PresenceEvent]) {
        guard let slot = evictionVictim() else { return }
        release(slot)
        // Read where the released entry now lies: a copy would retain and release every buffer in it.
        if spare?.isPresent == true {
            events.append(PresenceEvent(kind: .lost(.evicted), accessory: spare!.key, matches: spare!.matches, at: now))
        }
    }

    private mutating func release(_ slot: Int) {
        guard slots[slot] != nil else { return }
        // Moved out, not copied and freed: the next new device may reuse its
        // storage. Even reading its key through the array copied the whole entry,
        // and `take()` copied and destroyed it again (~600 instructions, callgrind, issue 25).
        var moved: TrackedAccessory?
        slots.withUnsafeMutableBufferPointer { entries in
            // Safe: `slot` is in bounds (just read), and the element moved out is
            // initialised again at once, so the array never holds moved-from memory.
            let entry = entries.baseAddress! + slot
            moved = entry.move()
            entry.initialize(to: nil)
        }
        recency.remove(slot)
        slotByKey.remove(moved!.key)
        freeSlots.append(slot)
        spare = consume moved
    }
}
