import AccessoryCore

/// Where everything the radios hear goes: into the registry, matched against
/// every app's descriptors, and out as sightings (for the monitor) and
/// presence events (for the apps). Owned by the event loop's thread.
public final class DiscoveryPipeline {
    /// One thing heard, after merging into what was known of the device.
    public enum Sighting {
        case bluetooth(Advertisement, matches: Set<DescriptorMatch>)
        case wifi(WiFiNetwork, matches: Set<DescriptorMatch>)
    }

    public private(set) var registry: AccessoryRegistry
    public var index: MatchingIndex
    private let clock: any MonotonicClock
    private var sightingObservers: [(Sighting) -> Void] = []
    private var presenceObservers: [(PresenceEvent) -> Void] = []
    private var heardObservers: [(wants: (AccessoryKey) -> Bool, observer: (TrackedAccessory) -> Void)] = []
    /// The bonded accessories' IRKs, resolving their private addresses to
    /// their identities before anything else sees a report (see `+Identity`);
    /// nil without a cipher.
    var resolver: IdentityResolver?
    /// Whether any IRK is known: without one no address is looked at.
    var resolvesAddresses = false
    /// The address each resolved identity was heard from last: where a connect goes.
    var addressNow: [BluetoothDeviceIdentifier: BluetoothDeviceIdentifier] = [:]
    /// Told when a bonded accessory is first heard from a new address.
    public var onNewAddress: ((_ identity: BluetoothDeviceIdentifier, _ address: BluetoothDeviceIdentifier) -> Void)?

    /// `identityCipher`, when given, resolves the private addresses of the
    /// accessories whose IRKs `resolveAddresses(of:)` gives.
    public init(clock: any MonotonicClock, presence: PresenceConfiguration = PresenceConfiguration(),
                matching: MatchingConfiguration = MatchingConfiguration(), identityCipher: (any AES128Cipher)? = nil) {
        self.clock = clock
        resolver = identityCipher.map { IdentityResolver(cipher: $0) }
        registry = AccessoryRegistry(configuration: presence)
        index = MatchingIndex(configuration: matching)
    }

    public var now: MonotonicInstant { clock.now }

    public func onSighting(_ observer: @escaping (Sighting) -> Void) { sightingObservers.append(observer) }
    public func onPresence(_ observer: @escaping (PresenceEvent) -> Void) { presenceObservers.append(observer) }

    /// Everything heard that `wants` asks for (by key), as the registry now
    /// knows it: how granted accessories' presence and advertisements reach
    /// their apps. `wants` sees every report first, so a device nobody wants
    /// is not copied out of the registry report after report.
    public func onHeard(when wants: @escaping (AccessoryKey) -> Bool, _ observer: @escaping (TrackedAccessory) -> Void) {
        heardObservers.append((wants, observer))
    }

    /// Whether anyone wants every sighting (the monitor), not only matches.
    public var hasSightingObservers: Bool { !sightingObservers.isEmpty }

    public func record(_ advertisement: Advertisement) {
        // Copied only when an address resolves: a copy is a retain of every buffer in it.
        if resolvesAddresses, let identity = resolvedIdentity(of: advertisement.device) {
            var resolved = advertisement
            resolved.device = identity
            recordResolved(resolved)
        } else {
            recordResolved(advertisement)
        }
    }

    private func recordResolved(_ advertisement: Advertisement) {
        let events = registry.record(advertisement, at: clock.now, matchingWith: index)
        recorded(advertisement.device, events)
    }

    /// A clean report of a known device, in one look-up: a repeat of the AD
    /// it sent last of its kind is noted without parsing or matching again,
    /// a changed one parsed by `parse` and merged in storage the registry
    /// holds (see `AccessoryRegistry.recordKnown`). False, doing nothing,
    /// when the registry does not know the device.
    public func recordKnown(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, parse: () -> AdvertisingData
    ) -> Bool {
        let facts = resolved(facts)
        guard let events = registry.recordKnown(facts, payload: payload, at: clock.now, matchingWith: index, parse: parse)
        else { return false }
        recorded(facts.device, events)
        return true
    }

    /// A clean report, of a device known or not (see
    /// `AccessoryRegistry.recordClean`): `record` of the advertisement it
    /// makes, without making it. The ingest's path for every clean legacy report.
    public func recordClean(
        _ facts: AdvertisingReportFacts, payload: UnsafeRawBufferPointer, parse: () -> AdvertisingData
    ) {
        let facts = resolved(facts)
        let events = registry.recordClean(facts, payload: payload, at: clock.now, matchingWith: index, parse: parse)
        recorded(facts.device, events)
    }

    /// The facts under the identity their address resolves to, if it does.
    @inline(__always)
    private func resolved(_ facts: AdvertisingReportFacts) -> AdvertisingReportFacts {
        guard resolvesAddresses, let identity = resolvedIdentity(of: facts.device) else { return facts }
        var resolved = facts
        resolved.device = identity
        return resolved
    }

    private func recorded(_ device: BluetoothDeviceIdentifier, _ events: [PresenceEvent]) {
        if !sightingObservers.isEmpty, let (merged, matches) = Self.lastRecordedSighting(&registry, in: index) {
            // Judged on the report's own RSSI, from the candidates the record just kept.
            let sighting = Sighting.bluetooth(merged, matches: matches)
            sightingObservers.forEach { $0(sighting) }
        }
        if !events.isEmpty { deliver(events) }
        if !heardObservers.isEmpty { tellHeard(.bluetooth(device)) }
    }

    /// The registry's last sighting, reached through `inout`: a plain call
    /// on the stored registry copied it, retaining and releasing every
    /// table in it, ~450 instructions a line of `--monitor` (callgrind, issue 25).
    private static func lastRecordedSighting(
        _ registry: inout AccessoryRegistry, in index: MatchingIndex
    ) -> (Advertisement, Set<DescriptorMatch>)? {
        registry.lastRecordedSighting(in: index)
    }

    public func record(_ network: WiFiNetwork) {
        let events = registry.record(network, at: clock.now, matchingWith: index)
        if !sightingObservers.isEmpty {
            let sighting = Sighting.wifi(network, matches: index.matches(network))
            sightingObservers.forEach { $0(sighting) }
        }
        deliver(events)
        tellHeard(.wifi(network.bssid))
    }

    private func tellHeard(_ key: AccessoryKey) {
        var tracked: TrackedAccessory?
        for (wants, observer) in heardObservers where wants(key) {
            if tracked == nil { tracked = registry[key] }
            guard let tracked else { return }
            observer(tracked)
        }
    }

    /// Presence losses due by now; the daemon calls this from a timer set to
    /// `nextDeadline`.
    public func expire() { deliver(registry.expire(at: clock.now)) }

    public var nextDeadline: MonotonicInstant? { registry.nextDeadline() }

    private func deliver(_ events: [PresenceEvent]) {
        for event in events { presenceObservers.forEach { $0(event) } }
    }
}
