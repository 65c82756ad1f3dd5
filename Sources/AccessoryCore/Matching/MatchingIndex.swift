/// Every active descriptor of every app, indexed so that each advertisement or
/// BSS heard is checked only against the descriptors that could match it:
/// Bluetooth descriptors by company identifier (or, lacking one, by service
/// UUID) and the first octet of the value their masked data fixes, if it
/// does (see `CompanyBucketKey`), Wi-Fi descriptors by exact SSID or by SSID prefix. A descriptor sits
/// in exactly one Bluetooth bucket because the key it is filed under is one it
/// requires; the full rules then run on those few candidates only.
///
/// Adding or removing a descriptor touches one or two buckets. Results carry
/// the app, so what one app declared never reaches another.
public struct MatchingIndex: Sendable {
    public let configuration: MatchingConfiguration

    /// Every table in one reference, copied when shared and changed: the
    /// index is passed by value on every report, and a copy of nine tables
    /// retained and released each of them.
    private var tables = Tables()

    ///
    /// Its properties skip the runtime exclusivity checks: three reads of
    /// them per report cost ~190 instructions (callgrind, issue 25), and Core
    /// cannot take the daemon's build flag (an app's build links it). Safe
    /// because the class is private to the index, which changes it only in
    /// its own mutating methods, after `ownTables()`, with no access overlapping.
    private final class Tables: @unchecked Sendable {
        /// Descriptors live in slots so the buckets hold small integers, not keys.
        @exclusivity(unchecked) var slots: [CompiledDescriptor?] = []
        @exclusivity(unchecked) var freeSlots: [Int] = []
        @exclusivity(unchecked) var slotByKey: [DescriptorMatch: Int] = [:]
        @exclusivity(unchecked) var idsByApp: [AppID: Set<DescriptorID>] = [:]

        @exclusivity(unchecked) var byCompanyIdentifier = KeyedBuckets<CompanyBucketKey>()
        @exclusivity(unchecked) var byServiceUUID = KeyedBuckets<ServiceBucketKey>()
        @exclusivity(unchecked) var bySSID: [[UInt8]: [Int]] = [:]
        @exclusivity(unchecked) var bySSIDPrefix: [[UInt8]: [Int]] = [:]
        /// How many prefixes of each length (index = length) are indexed, so a
        /// lookup tries only the lengths in use.
        @exclusivity(unchecked) var prefixLengthCounts = [Int](repeating: 0, count: SSID.maximumLength + 1)

        init() {}

        func copy() -> Tables {
            let copy = Tables()
            copy.slots = slots
            copy.freeSlots = freeSlots
            copy.slotByKey = slotByKey
            copy.idsByApp = idsByApp
            copy.byCompanyIdentifier = byCompanyIdentifier
            copy.byServiceUUID = byServiceUUID
            copy.bySSID = bySSID
            copy.bySSIDPrefix = bySSIDPrefix
            copy.prefixLengthCounts = prefixLengthCounts
            return copy
        }
    }

    /// The tables, for changing: a copy of their own when another index shares them.
    private mutating func ownTables() -> Tables {
        if !isKnownUniquelyReferenced(&tables) { tables = tables.copy() }
        return tables
    }

    private var slots: [CompiledDescriptor?] { tables.slots }
    private var slotByKey: [DescriptorMatch: Int] { tables.slotByKey }

    /// Changes whenever a descriptor is added or removed: a fresh random
    /// value, so a result cached against it is only reused with the very
    /// index (and contents) that produced it.
    public private(set) var stamp = UInt64.random(in: .min ... .max)

    /// A descriptor an advertisement's data matches, and the RSSI it still asks for.
    struct Candidate: Sendable {
        let match: DescriptorMatch
        let minimumRSSI: Int?

        func admits(rssi: Int?) -> Bool { Self.reaches(rssi, minimumRSSI) }

        /// An RSSI floor holds when there is none, or an RSSI at or above it.
        static func reaches(_ rssi: Int?, _ floor: Int?) -> Bool {
            guard let floor else { return true }
            guard let rssi else { return false }
            return rssi >= floor
        }
    }

    public init(configuration: MatchingConfiguration = MatchingConfiguration()) {
        self.configuration = configuration
    }

    public var count: Int { slotByKey.count }
    public var isEmpty: Bool { slotByKey.isEmpty }

    /// The descriptor stored under `key`.
    public subscript(key: DescriptorMatch) -> DiscoveryDescriptor? {
        slotByKey[key].flatMap { slots[$0]?.descriptor }
    }

    /// Every descriptor key of `app`.
    public func descriptorIDs(of app: AppID) -> Set<DescriptorID> { tables.idsByApp[app] ?? [] }

    /// Validates `descriptor` and makes it active for `app` as `id`,
    /// replacing what was there under the same key.
    public mutating func insert(_ descriptor: DiscoveryDescriptor, id: DescriptorID, app: AppID)
        throws(DiscoveryDescriptorError)
    {
        let key = DescriptorMatch(app: app, descriptorID: id)
        let compiled = try CompiledDescriptor(descriptor, key: key, configuration: configuration)
        let tables = ownTables()
        // A new key (the usual case) is looked up once, as it is given the
        // slot freed last or a new one at the end: a look-up is ~470
        // instructions (callgrind, issue 25).
        var slot = tables.freeSlots.last ?? tables.slots.count
        if let previous = tables.slotByKey.updateValue(slot, forKey: key) {
            // Replacing: the old descriptor is taken out as `remove` does, so
            // its slot is the one freed last, and taken again.
            if let old = tables.slots[previous] { Self.free(old, in: previous, of: key, tables) }
            slot = tables.freeSlots.last ?? tables.slots.count
            tables.slotByKey[key] = slot
        }
        if slot == tables.slots.count {
            tables.slots.append(compiled)
        } else {
            tables.freeSlots.removeLast()
            tables.slots[slot] = compiled
        }
        tables.idsByApp[app, default: []].insert(id)
        Self.file(compiled, slot: slot, adding: true, in: tables)
        stamp = UInt64.random(in: .min ... .max)
    }

    /// Deactivates one descriptor; returns it, or nil when there was none.
    @discardableResult
    public mutating func remove(_ key: DescriptorMatch) -> DiscoveryDescriptor? {
        guard slotByKey[key] != nil else { return nil }
        let tables = ownTables()
        guard let slot = tables.slotByKey.removeValue(forKey: key), let compiled = tables.slots[slot] else { return nil }
        Self.free(compiled, in: slot, of: key, tables)
        stamp = UInt64.random(in: .min ... .max)
        return compiled.descriptor
    }

    /// Unfiles `compiled`, `key`'s descriptor in `slot`, and frees the slot;
    /// the caller has taken `key` out of `slotByKey`.
    private static func free(_ compiled: CompiledDescriptor, in slot: Int, of key: DescriptorMatch, _ tables: Tables) {
        file(compiled, slot: slot, adding: false, in: tables)
        tables.slots[slot] = nil
        tables.freeSlots.append(slot)
        tables.idsByApp[key.app]?.remove(key.descriptorID)
        if tables.idsByApp[key.app]?.isEmpty == true { tables.idsByApp[key.app] = nil }
    }

    /// Deactivates every descriptor of `app` (its session ended).
    public mutating func removeAll(of app: AppID) {
        for id in tables.idsByApp[app] ?? [] { remove(DescriptorMatch(app: app, descriptorID: id)) }
    }

    /// The (app, descriptor) pairs the advertisement matches, judged on its own RSSI.
    public func matches(_ advertisement: Advertisement) -> Set<DescriptorMatch> {
        matches(advertisement, rssi: advertisement.rssi.map(Int.init))
    }

    /// The same, judging range and minimum RSSI on `rssi` instead (the
    /// registry passes its smoothed value, so one strong packet does not make
    /// a far device `.immediate`).
    public func matches(_ advertisement: Advertisement, rssi: Int?) -> Set<DescriptorMatch> {
        var found: [Candidate] = []
        candidates(advertisement.data, into: &found)
        var result = Set<DescriptorMatch>()
        for candidate in found where candidate.admits(rssi: rssi) { result.insert(candidate.match) }
        return result
    }

    /// The (app, descriptor) pairs `data` matches at `rssi`, each once, in no
    /// particular order, written over `result`: its storage is reused, so a
    /// caller that keeps it allocates nothing once it is large enough.
    public func matches(_ data: AdvertisingData, rssi: Int?, into result: inout [DescriptorMatch]) {
        // Emptied only when it holds something: most advertisements match
        // nothing, and the call cost ~75 instructions even on an empty buffer (callgrind, issue 25).
        if !result.isEmpty { result.removeAll(keepingCapacity: true) }
        // Locals, not `self`: a closure capturing `self` would copy the index.
        let slots = tables.slots
        let companies = tables.byCompanyIdentifier
        let services = tables.byServiceUUID
        data.withRecords { records in
            var heard = HeardAdvertisement(records: records, rssi: rssi)
            Self.forEachBucket(of: records, companies, services) { bucket in
                Self.forEachDescriptor(in: bucket, of: slots) { compiled in
                    if compiled.admits(rssi: rssi), compiled.matchesData(&heard) { result.append(compiled.key) }
                }
            }
        }
    }

    /// The descriptors `data` matches whatever the RSSI, with the RSSI each
    /// still needs, written over `found` (its storage is reused). What the
    /// registry keeps per device, so a repeated payload is not matched again.
    func candidates(_ data: AdvertisingData, into found: inout [Candidate]) {
        if !found.isEmpty { found.removeAll(keepingCapacity: true) }
        let companies = tables.byCompanyIdentifier
        let services = tables.byServiceUUID
        // No bucket, nothing to find (discovery with no app's descriptors):
        // reading the records for nothing cost ~400 instructions a report (callgrind, issue 25).
        if companies.isEmpty, services.isEmpty { return }
        let slots = tables.slots
        data.withRecords { records in
            var heard = HeardAdvertisement(records: records, rssi: nil)
            Self.forEachBucket(of: records, companies, services) { bucket in
                Self.forEachDescriptor(in: bucket, of: slots) { compiled in
                    if compiled.matchesData(&heard) {
                        found.append(Candidate(match: compiled.key, minimumRSSI: compiled.bluetoothMinimumRSSI))
                    }
                }
            }
        }
    }

    /// Calls `body` with the descriptor of each slot in `bucket`, borrowed
    /// from `slots` rather than retained and released: with 1,000
    /// descriptors the pair cost ~460 instructions an advertisement
    /// (callgrind, issue 25). Sound because `slots` holds every one of them
    /// for the whole call and `body` cannot change it.
    @inline(__always)
    private static func forEachDescriptor(
        in bucket: [Int], of slots: [CompiledDescriptor?], _ body: (CompiledDescriptor) -> Void
    ) {
        slots.withUnsafeBufferPointer { slots in
            // A while loop: an unoptimised build's array iterator allocates.
            var index = 0
            while index < bucket.count {
                // Slots in a bucket are always occupied: removal unfiles before it frees.
                Unmanaged.passUnretained(slots[bucket[index]]!)._withUnsafeGuaranteedRef(body)
                index += 1
            }
        }
    }

    /// Calls `body` with each bucket the advertisement's keys select, each
    /// bucket once: its companies' (each alone, and with each first octet of
    /// its values), then its service UUIDs' (listed or as service-data keys;
    /// a service-data key alone and with its value's first octet). A
    /// descriptor is in one bucket only, so it is met once.
    private static func forEachBucket(
        of records: ADRecordView, _ byCompanyIdentifier: KeyedBuckets<CompanyBucketKey>,
        _ byServiceUUID: KeyedBuckets<ServiceBucketKey>,
        _ body: ([Int]) -> Void
    ) {
        // Records are in kind order: one walk finds where the UUID lists, the
        // service data and the manufacturer data begin, where a walk for each
        // cost ~120 instructions an advertisement more (callgrind, issue 25).
        var offset = 0
        let end = records.bytes.count
        while offset < end, records.bytes[offset] < ADRecords.Kind.completeUUIDs { offset = records.end(ofRecordAt: offset) }
        let listsStart = offset
        while offset < end, records.bytes[offset] < ADRecords.Kind.serviceData { offset = records.end(ofRecordAt: offset) }
        let serviceDataStart = offset
        while offset < end, records.bytes[offset] < ADRecords.Kind.manufacturerData { offset = records.end(ofRecordAt: offset) }
        let manufacturerDataStart = offset
        if !byCompanyIdentifier.isEmpty {
            var last: UInt16?
            var firstOctets = OctetSet()
            offset = manufacturerDataStart
            while offset < end {
                let company = records.company(at: offset)
                if company != last {
                    firstOctets = OctetSet()
                    if let bucket = byCompanyIdentifier[CompanyBucketKey(company)] { body(bucket) }
                }
                // A company's values are its records in a row: each first octet's bucket once.
                let value = records.manufacturerValue(at: offset)
                if !value.isEmpty, firstOctets.insert(value[0]),
                    let bucket = byCompanyIdentifier[CompanyBucketKey(company, firstOctet: value[0])]
                {
                    body(bucket)
                }
                last = company
                offset = records.end(ofRecordAt: offset)
            }
        }
        guard !byServiceUUID.isEmpty else { return }
        // Each UUID once, wherever it first appears: complete list, incomplete list, service data.
        let lists = listsStart..<serviceDataStart
        offset = listsStart
        while offset < serviceDataStart {
            var entry = offset + ADRecords.headerSize
            let recordEnd = records.end(ofRecordAt: offset)
            while entry < recordEnd {
                let uuid = records.uuid(at: entry)
                if !listed(uuid, in: records, lists, before: entry), let bucket = byServiceUUID[ServiceBucketKey(uuid)] {
                    body(bucket)
                }
                entry += ADRecords.uuidSize
            }
            offset = recordEnd
        }
        offset = serviceDataStart
        while offset < manufacturerDataStart {
            let uuid = records.uuid(atBodyOf: offset)
            if !listed(uuid, in: records, lists, before: serviceDataStart), let bucket = byServiceUUID[ServiceBucketKey(uuid)] {
                body(bucket)
            }
            // One record per UUID, so its first octet's bucket is met once.
            let data = records.body(at: offset)
            if data.count > ADRecords.uuidSize,
                let bucket = byServiceUUID[ServiceBucketKey(uuid, firstOctet: data[ADRecords.uuidSize])]
            {
                body(bucket)
            }
            offset = records.end(ofRecordAt: offset)
        }
    }

    /// The (app, descriptor) pairs the BSS matches.
    public func matches(_ network: WiFiNetwork) -> Set<DescriptorMatch> {
        var result = Set<DescriptorMatch>()
        let tables = tables
        let slots = tables.slots
        let ssid = network.ssid.bytes
        for slot in tables.bySSID[ssid] ?? [] where slots[slot]!.matches(network) { result.insert(slots[slot]!.key) }
        if !tables.bySSIDPrefix.isEmpty, !ssid.isEmpty {
            for length in 1...min(ssid.count, SSID.maximumLength) where tables.prefixLengthCounts[length] > 0 {
                for slot in tables.bySSIDPrefix[Array(ssid[0..<length])] ?? [] where slots[slot]!.matches(network) {
                    result.insert(slots[slot]!.key)
                }
            }
        }
        return result
    }

    /// What `matches(_:rssi:)` returns, found the slow way: every descriptor
    /// checked in turn. The reference the index is tested against.
    public func matchesByScanningAll(_ advertisement: Advertisement, rssi: Int?) -> Set<DescriptorMatch> {
        advertisement.data.withRecords { records in
            var heard = HeardAdvertisement(records: records, rssi: rssi)
            var result = Set<DescriptorMatch>()
            for case let compiled? in slots where compiled.matches(&heard) { result.insert(compiled.key) }
            return result
        }
    }

    public func matchesByScanningAll(_ advertisement: Advertisement) -> Set<DescriptorMatch> {
        matchesByScanningAll(advertisement, rssi: advertisement.rssi.map(Int.init))
    }

    /// What `matches(_:)` returns for a BSS, found by checking every descriptor.
    public func matchesByScanningAll(_ network: WiFiNetwork) -> Set<DescriptorMatch> {
        var result = Set<DescriptorMatch>()
        for case let compiled? in slots where compiled.matches(network) { result.insert(compiled.key) }
        return result
    }

    /// Whether `uuid` is in the UUID list records `lists` before `position`.
    private static func listed(_ uuid: BluetoothUUID, in records: ADRecordView, _ lists: Range<Int>, before position: Int) -> Bool {
        // UUID list bodies hold 16-octet UUIDs; headers in between are skipped.
        var offset = lists.lowerBound
        while offset < lists.upperBound {
            var entry = offset + ADRecords.headerSize
            let end = records.end(ofRecordAt: offset)
            while entry < end, entry < position {
                if records.uuid(at: entry) == uuid { return true }
                entry += ADRecords.uuidSize
            }
            offset = end
        }
        return false
    }

    /// Files the descriptor under its keys, or takes it out of them.
    private static func file(_ compiled: CompiledDescriptor, slot: Int, adding: Bool, in tables: Tables) {
        if compiled.matchesBluetooth {
            if let company = compiled.companyIdentifier {
                let key = CompanyBucketKey(company, firstOctet: compiled.firstOctet)
                if adding {
                    tables.byCompanyIdentifier.add(slot, under: key)
                } else {
                    tables.byCompanyIdentifier.remove(slot, from: key)
                }
            } else if let uuid = compiled.serviceUUID {
                let key = ServiceBucketKey(uuid, firstOctet: compiled.firstOctet)
                if adding {
                    tables.byServiceUUID.add(slot, under: key)
                } else {
                    tables.byServiceUUID.remove(slot, from: key)
                }
            }
        }
        if compiled.matchesWiFi {
            if let ssid = compiled.ssid {
                update(&tables.bySSID, ssid, slot, adding)
            } else if let prefix = compiled.ssidPrefix {
                update(&tables.bySSIDPrefix, prefix, slot, adding)
                tables.prefixLengthCounts[prefix.count] += adding ? 1 : -1
            }
        }
    }

    private static func update<Key: Hashable>(_ buckets: inout [Key: [Int]], _ key: Key, _ slot: Int, _ adding: Bool) {
        if adding {
            buckets[key, default: []].append(slot)
            return
        }
        guard var bucket = buckets[key], let position = bucket.firstIndex(of: slot) else { return }
        bucket.swapAt(position, bucket.count - 1)
        bucket.removeLast()
        buckets[key] = bucket.isEmpty ? nil : bucket
    }
}
