import AccessoryCore
import AccessoryPlatform

/// The center's face to the D-Bus service: each call one input to the core,
/// each question answered from the core or, for presence, the registry.
extension AuthorizationCenter {
    // MARK: What the core knows

    public var requests: [UInt32: SetupRequest] { core.requests.open }
    public var windows: ApprovalWindows { core.windows }
    public var agent: PickerAgent? { core.agent }
    public var demand: AuthorizationDemand { core.demand }
    public var wantsWiFiScans: Bool { core.demand.wifi }
    public var allGrants: [AccessoryID: Grant] { core.grants.all }
    public func grants(of app: AppID) -> [Grant] { core.grants.grants(of: app) }
    public func request(ofSession session: UInt64) -> SetupRequest? { core.requests.request(ofSession: session) }
    public func owned(_ id: AccessoryID, by app: AppID?) throws(AccessorySetupError) -> Grant { try core.grants.owned(id, by: app) }

    // MARK: What the registry knows

    public func isPresent(_ id: AccessoryID) -> Bool {
        core.grants[id].map { GrantPresence.isPresent($0, in: pipeline.registry, at: pipeline.now) } ?? false
    }

    /// Whole seconds since the accessory was last heard; nil when it has not been
    /// heard since accessoryd started (or so long ago that the registry let it go).
    public func secondsSinceHeard(_ id: AccessoryID) -> Int? {
        guard let grant = core.grants[id], let tracked = GrantPresence.tracked(grant, in: pipeline.registry) else { return nil }
        return Int(pipeline.now.duration(since: tracked.lastHeard).components.seconds)
    }

    /// The smoothed signal strength, nil when absent or heard without one.
    public func rssi(of id: AccessoryID) -> Int? {
        core.grants[id].flatMap { GrantPresence.rssi($0, in: pipeline.registry, at: pipeline.now) }
    }

    /// The security a hotspot was last heard with, if it was.
    public func hotspotSecurity(_ ssid: SSID) -> WiFiSecurity? {
        pipeline.registry.accessories.first { $0.network?.ssid == ssid }?.network?.security
    }

    // MARK: Inputs

    @discardableResult
    public func showPicker(
        session: UInt64, manifest: AppManifest, items: [PickerDisplayItem], settings: PickerDisplaySettings
    ) throws(AccessorySetupError) -> UInt32 {
        try transact { core, now, _ throws(AccessorySetupError) in
            try core.showPicker(session: session, manifest: manifest, items: items, settings: settings, at: now)
        }
    }

    @discardableResult
    public func migrate(session: UInt64, manifest: AppManifest, items: [MigrationItem]) throws(AccessorySetupError) -> UInt32 {
        let number = try transact { core, now, _ throws(AccessorySetupError) in
            try core.migrate(session: session, manifest: manifest, items: items, at: now)
        }
        lookUpBonds(forMigration: number)
        return number
    }

    public func updatePicker(session: UInt64, manifest: AppManifest? = nil, shown: [(candidate: UInt32, name: String, image: String)]) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.updatePicker(session: session, manifest: manifest, shown: shown)) }
    }

    public func finishDiscovery(session: UInt64) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.finishDiscovery(session: session)) }
    }

    public func sessionEnded(_ session: UInt64) { apply { core, _, _ in core.sessionEnded(session) } }

    @discardableResult
    public func approve(_ number: UInt32, candidate: UInt32, name: String?, by decider: Decider) throws(AccessorySetupError) -> [AccessoryID] {
        let migration = core.requests.open[number].flatMap { $0.isMigration ? $0 : nil }
        let granted = try transact { core, now, registry throws(AccessorySetupError) in
            try core.approve(number, candidate: candidate, name: name, decidedBy: decider.description,
                             approver: decider.pairingApprover, registry: registry, at: now)
        }
        // In the same turn of the loop as the grant: no channel can be opened to it before its record is.
        if let migration { adoptBonds(of: migration, granted: granted) }
        return granted
    }

    public func deny(_ number: UInt32, by decider: Decider) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.deny(number, decidedBy: decider.description)) }
    }

    public func withdraw(session: UInt64) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.withdraw(session: session)) }
    }

    public func allow(_ app: AppID, for duration: Duration, by decider: Decider) {
        apply { core, now, _ in core.allow(app, for: duration, decidedBy: decider.description, at: now) }
    }

    public func disallow(_ app: AppID, by decider: Decider) {
        apply { core, _, _ in core.disallow(app, decidedBy: decider.description) }
    }

    public func registerAgent(name: String, path: String) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.registerAgent(name: name, path: path)) }
    }

    /// Returns whether `name` was the agent.
    @discardableResult
    public func unregisterAgent(name: String, reason: String) -> Bool {
        var was = false
        apply { core, _, _ in
            guard let decision = core.unregisterAgent(name: name, reason: reason) else { return AuthorizationDecision() }
            was = true
            return decision
        }
        return was
    }

    public func finishAuthorization(_ id: AccessoryID, app: AppID, ssid: SSID?, bridgingIdentifier: String?) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in
            ((), try core.finishAuthorization(id, app: app, ssid: ssid, bridgingIdentifier: bridgingIdentifier))
        }
    }

    public func failAuthorization(_ id: AccessoryID, app: AppID) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.failAuthorization(id, app: app)) }
    }

    public func updateAuthorization(_ id: AccessoryID, manifest: AppManifest, descriptor: DiscoveryDescriptor) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in
            ((), try core.updateAuthorization(id, manifest: manifest, descriptor: descriptor))
        }
    }

    /// `app` nil: the administrator, who may remove any accessory.
    public func remove(_ id: AccessoryID, app: AppID?, by decider: Decider) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.remove(id, app: app, decidedBy: decider.description)) }
    }

    public func rename(_ id: AccessoryID, app: AppID?, to name: String, renameSSID: Bool, by decider: Decider) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in
            ((), try core.rename(id, app: app, to: name, renameSSID: renameSSID, decidedBy: decider.description))
        }
    }

    public func observePresence(_ id: AccessoryID, manifest: AppManifest, observe: Bool) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.observePresence(id, manifest: manifest, observe: observe)) }
    }

    /// The loop's timer calls this at the core's next deadline.
    public func deadlineReached() {
        apply { core, now, registry in core.deadlineReached(registry: registry, at: now) }
        // Early (what was due moved later) and nothing to do: the timer is armed again all the same.
        reschedule()
    }
}
