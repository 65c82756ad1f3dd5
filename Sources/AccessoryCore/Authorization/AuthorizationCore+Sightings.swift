/// What the radios heard, as the registry and the matching index know it:
/// candidates for open requests, and presence and advertisements of
/// granted accessories for their apps.
extension AuthorizationCore {
    /// A device appeared for some descriptors (the registry's presence event).
    public mutating func appeared(_ event: PresenceEvent, registry: AccessoryRegistry) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        guard case .appeared = event.kind, !requests.isEmpty, let tracked = registry[event.accessory] else { return decision }
        offer(tracked, matches: event.matches, into: &decision)
        return decision
    }

    /// A new request starts with the devices heard lately that match it, as
    /// a phone's picker shows what is around at once: a device that keeps
    /// advertising the same thing would otherwise wait for the registry to
    /// see it change.
    public mutating func offerRecentlyHeard(
        _ number: UInt32, registry: AccessoryRegistry, index: MatchingIndex, at now: MonotonicInstant
    ) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        for tracked in registry.accessories {
            guard tracked.lastHeard.advanced(by: registry.allowedSilence(of: tracked)) > now else { continue }
            let matches: Set<DescriptorMatch>
            if let advertisement = tracked.advertisement {
                matches = index.matches(advertisement, rssi: tracked.rssi)
            } else if let network = tracked.network {
                matches = index.matches(network)
            } else {
                continue
            }
            offer(tracked, matches: matches.filter { RequestDescriptorID.request(of: $0.descriptorID) == number }, into: &decision)
        }
        return decision
    }

    private mutating func offer(_ tracked: TrackedAccessory, matches: Set<DescriptorMatch>, into decision: inout AuthorizationDecision) {
        guard let heard = Self.identity(of: tracked) else { return }
        for match in matches.sorted() {
            guard let number = RequestDescriptorID.request(of: match.descriptorID), var request = requests[number],
                request.app == match.app,
                // An accessory granted to any app is never offered again.
                grants.holder(of: heard.identity) == nil,
                let candidate = request.offer(heard.identity, item: RequestDescriptorID.item(of: match.descriptorID),
                                              name: heard.name, rssi: tracked.rssi, advertisingData: heard.data)
            else { continue }
            requests.update(request)
            decision.log(nil, .debug, "Candidate \(candidate.number) for request \(number): \(heard.identity)")
            if request.settings.filterDiscoveryResults {
                decision.notify(.session(request.session, .accessoryDiscovered(candidate)))
            } else {
                decision.notify(.agent(.candidateAdded(request, candidate)))
                decision.followUp(.approveByPolicy(number))
            }
        }
    }

    /// A device heard (any device: the core keeps to the granted ones). Its
    /// app hears that it is present when it was not, and its advertisement
    /// when that changed.
    /// Whether a sighting of `key` can concern a grant, so that `heard` has
    /// anything to do: a Bluetooth device's key is its identity, so only a
    /// granted one's can; a BSS's identity is its SSID, which the key does
    /// not give, so every BSS can. Asked before each report is handed over,
    /// so the reports of devices nobody holds cost nothing more.
    public func concerns(_ key: AccessoryKey) -> Bool {
        guard case .bluetooth(let device) = key else { return true }
        return !grants.isEmpty && grants.holder(of: .bluetooth(device)) != nil
    }

    public mutating func heard(_ tracked: TrackedAccessory) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        guard !grants.isEmpty, let heard = Self.identity(of: tracked), let grant = grants.holder(of: heard.identity) else {
            return decision
        }
        if presence.markReported(grant.accessory) {
            decision.notify(.presence(grant, present: true, rssi: tracked.rssi))
        }
        if presence.advertisementChanged(grant.accessory, to: heard.data), tracked.advertisement != nil {
            decision.notify(.advertisement(grant, rssi: tracked.rssi, data: heard.data))
        }
        return decision
    }

    /// The identity a candidate or grant knows the device by, the name it
    /// goes by, and the advertising data (with the scan response) heard.
    static func identity(of tracked: TrackedAccessory) -> (identity: DeviceIdentity, name: String, data: [UInt8])? {
        if let advertisement = tracked.advertisement {
            return (.bluetooth(advertisement.device), advertisement.data.localName ?? "\(advertisement.device.address)",
                    advertisement.rawAdvertisingData + (advertisement.rawScanResponse ?? []))
        }
        if let network = tracked.network { return (.wifi(network.ssid), network.ssid.displayName, []) }
        return nil
    }
}
