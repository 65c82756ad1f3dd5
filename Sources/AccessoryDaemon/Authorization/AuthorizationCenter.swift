import AccessoryCore
import AccessorySystem
import Logging

/// The authorization core's adapter, made and owned by the daemon's wiring:
/// it feeds `AuthorizationCore` its inputs with the time, the registry and
/// the matching index, and carries out what it decides: grant writes (made
/// durable before the core's new state is kept), the index, the journal,
/// the deadline timer on the loop and the notices, which the D-Bus service
/// turns into signals. Owned by the event loop's thread.
public final class AuthorizationCenter {
    public let store: GrantStore
    private let pipeline: DiscoveryPipeline
    private let logger: Logger
    private weak var loop: EventLoop?
    private var timer: (token: TimerToken, due: MonotonicInstant)?
    public private(set) var core: AuthorizationCore
    /// Where notices go: the D-Bus service, once it serves.
    public var notify: (AuthorizationNotice) -> Void = { _ in }
    /// Told when what the apps need the radios for changes.
    public var demandChanged: (AuthorizationDemand) -> Void = { _ in }
    private var lastDemand: AuthorizationDemand

    /// `loop` nil: no deadline timer (the caller calls `deadlineReached`).
    public init(store: GrantStore, pipeline: DiscoveryPipeline, logger: Logger, loop: EventLoop?) {
        self.store = store
        self.pipeline = pipeline
        self.logger = logger
        self.loop = loop
        var random = SystemRandomNumberGenerator()
        core = AuthorizationCore(grants: store.grants, idSeed: random.next())
        lastDemand = core.demand
        pipeline.onPresence { [weak self] event in self?.apply { core, _, registry in core.appeared(event, registry: registry) } }
        pipeline.onHeard { [weak self] tracked in self?.apply { core, _, _ in core.heard(tracked) } }
    }

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
        try transact { core, now, _ throws(AccessorySetupError) in
            try core.migrate(session: session, manifest: manifest, items: items, at: now)
        }
    }

    public func updatePicker(session: UInt64, shown: [(candidate: UInt32, name: String, image: String)]) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.updatePicker(session: session, shown: shown)) }
    }

    public func finishDiscovery(session: UInt64) throws(AccessorySetupError) {
        try transact { core, _, _ throws(AccessorySetupError) in ((), try core.finishDiscovery(session: session)) }
    }

    public func sessionEnded(_ session: UInt64) { apply { core, _, _ in core.sessionEnded(session) } }

    @discardableResult
    public func approve(_ number: UInt32, candidate: UInt32, name: String?, by decider: Decider) throws(AccessorySetupError) -> [AccessoryID] {
        try transact { core, now, registry throws(AccessorySetupError) in
            try core.approve(number, candidate: candidate, name: name, decidedBy: decider.description, registry: registry, at: now)
        }
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

    /// The loop's timer calls this at the core's next deadline.
    public func deadlineReached() {
        apply { core, now, registry in core.deadlineReached(registry: registry, at: now) }
    }

    // MARK: Carrying decisions out

    private typealias Input<Result> = (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) throws(AccessorySetupError) -> (Result, AuthorizationDecision)

    /// One input as a transaction: the core's new state is kept only once
    /// its grant write is durable; a failed write leaves everything as it
    /// was and fails the call.
    private func transact<Result>(_ input: Input<Result>) throws(AccessorySetupError) -> Result {
        var next = core
        let (result, decision) = try input(&next, pipeline.now, pipeline.registry)
        if let write = decision.grantWrite { try perform(write) }
        core = next
        carryOut(decision)
        return result
    }

    private func apply(_ input: (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) -> AuthorizationDecision) {
        do {
            try transact { core, now, registry throws(AccessorySetupError) in ((), input(&core, now, registry)) }
        } catch {
            logger.warning("A decision could not be carried out: \(error)")
        }
    }

    private func perform(_ write: GrantWrite) throws(AccessorySetupError) {
        do {
            switch write {
            case .save(let grant): try store.save(grant)
            case .saveAll(let grants):
                var next = store.grants
                for grant in grants { next[grant.accessory] = grant }
                try store.replaceAll(next)
            case .remove(let id): try store.remove(id)
            }
        } catch {
            logger.error("Cannot write the grant store: \(error)", metadata: ["grant_store": "\(store.path)"])
            throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: \(error)"))
        }
    }

    private func carryOut(_ decision: AuthorizationDecision) {
        for change in decision.indexChanges {
            switch change {
            case .insert(let match, let descriptor): try? pipeline.index.insert(descriptor, id: match.descriptorID, app: match.app)
            case .remove(let match): _ = pipeline.index.remove(match)
            }
        }
        for line in decision.log { write(line) }
        for notice in decision.notices { notify(notice) }
        for next in decision.followUps {
            switch next {
            case .approveByPolicy(let number):
                do {
                    try transact { core, now, registry throws(AccessorySetupError) in
                        ((), core.approveByPolicy(number, registry: registry, at: now))
                    }
                } catch {
                    logger.warning("The approval window could not approve request \(number): \(error)",
                                   metadata: ["request": "\(number)"])
                }
            case .offerRecentlyHeard(let number):
                let index = pipeline.index
                apply { core, now, registry in core.offerRecentlyHeard(number, registry: registry, index: index, at: now) }
            }
        }
        reschedule()
        let demand = core.demand
        if demand != lastDemand {
            lastDemand = demand
            demandChanged(demand)
        }
    }

    /// Arms the loop's timer for the core's next deadline. A timer due
    /// before it stays: it fires early, finds nothing due, and re-arms.
    private func reschedule() {
        guard let loop, let deadline = core.nextDeadline(registry: pipeline.registry) else { return }
        if let armed = timer {
            guard deadline < armed.due else { return }
            loop.cancel(armed.token)
        }
        let delay = max(.zero, deadline.duration(since: pipeline.now))
        guard let token = try? loop.after(delay, { [weak self] in
            self?.timer = nil
            self?.deadlineReached()
        }) else { timer = nil; return }
        timer = (token, deadline)
    }

    private func write(_ line: AuthorizationLogLine) {
        var metadata = Logger.Metadata()
        for (key, value) in line.metadata {
            switch value {
            case .string(let text): metadata[key] = .string(text)
            case .array(let texts): metadata[key] = .array(texts.map { .string($0) })
            }
        }
        let level: Logger.Level = switch line.level {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
        if let event = line.event {
            logger.log(event, level: level, "\(line.message)", metadata: metadata)
        } else {
            logger.log(level: level, "\(line.message)", metadata: metadata)
        }
    }
}
