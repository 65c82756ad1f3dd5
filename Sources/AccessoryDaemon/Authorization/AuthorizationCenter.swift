import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Logging

/// The authorization core's adapter, made and owned by the daemon's wiring:
/// it feeds `AuthorizationCore` its inputs with the time, the registry and
/// the matching index, and carries out what it decides: grant writes (made
/// durable before the core's new state is kept), the index, the journal,
/// the deadline timer on the loop and the notices, which the D-Bus service
/// turns into signals. Owned by the event loop's thread.
public final class AuthorizationCenter {
    public let store: GrantStore
    let pipeline: DiscoveryPipeline
    let logger: Logger
    private weak var scheduler: (any Scheduler)?
    private var timer: (token: TimerToken, due: MonotonicInstant)?
    public internal(set) var core: AuthorizationCore
    /// Where notices go: the D-Bus service, once it serves.
    public var notify: (AuthorizationNotice) -> Void = { _ in }
    /// Told when what the apps need the radios for changes.
    public var demandChanged: (AuthorizationDemand) -> Void = { _ in }
    private var lastDemand: AuthorizationDemand
    /// The pairings of approved accessories that need one; without a
    /// scheduler (a caller driving deadlines itself) none can run.
    let pairings: SetupPairings?
    /// Open migration requests' questions to bluetoothd about their Bluetooth
    /// items (`MigrationBondAdoption`), by request number.
    var bondLookups: [UInt32: MigrationBondAdoption.Lookup] = [:]

    /// `scheduler` nil: no deadline timer (the caller calls `deadlineReached`).
    public init(store: GrantStore, pipeline: DiscoveryPipeline, logger: Logger, scheduler: (any Scheduler)?) {
        self.store = store
        self.pipeline = pipeline
        self.logger = logger
        self.scheduler = scheduler
        var random = SystemRandomNumberGenerator()
        core = AuthorizationCore(grants: store.grants, idSeed: random.next())
        lastDemand = core.demand
        pairings = scheduler.map { SetupPairings(scheduler: $0, logger: logger) }
        pairings?.announce = { [weak self] pending in
            self?.notify(.session(pending.session, .pickerSetupPairing(pending.accessory)))
        }
        pairings?.ended = { [weak self] pending, failure in self?.pairingEnded(pending, failure) }
        // An administrator's questions wait in ListPairingQuestions; an agent's are also put to it.
        pairings?.asked = { [weak self] question, approver in
            if case .agent(let name) = approver { self?.notify(.agent(.pairingQuestion(question, agent: name))) }
        }
        pairings?.withdrawn = { [weak self] id, approver in
            if case .agent(let name) = approver { self?.notify(.agent(.pairingQuestionWithdrawn(id, agent: name))) }
        }
        pipeline.onPresence { [weak self] event in self?.apply { core, _, registry in core.appeared(event, registry: registry) } }
        pipeline.onHeard(when: { [weak self] key in self?.core.concerns(key) ?? false }) { [weak self] tracked in
            self?.apply { core, _, _ in core.heard(tracked) }
            // A repeat report decides nothing, yet its learned interval can shorten the silence
            // allowed: the absence timer armed at the appearance must not stay later than that.
            self?.reschedule()
        }
    }

    // MARK: Carrying decisions out

    typealias Input<Result> = AuthorizationCore.Input<Result>

    /// One input as a transaction (`AuthorizationCore.transact`): the core's
    /// new state is kept only once its grant write is durable; a failed
    /// write leaves everything as it was and fails the call.
    func transact<Result>(_ input: Input<Result>) throws(AccessorySetupError) -> Result {
        let (result, decision) = try core.transact(
            at: pipeline.now, registry: pipeline.registry,
            // The core's grants after the input are the store's next content.
            persist: { [self] _, grants throws(AccessorySetupError) in try persist(grants.all) }, input)
        // Every advertisement heard comes through here: an empty decision costs nothing more.
        if !decision.isEmpty { carryOut(decision) }
        return result
    }

    func apply(_ input: (inout AuthorizationCore, MonotonicInstant, AccessoryRegistry) -> AuthorizationDecision) {
        do {
            try transact { core, now, registry throws(AccessorySetupError) in ((), input(&core, now, registry)) }
        } catch {
            logger.warning("A decision could not be carried out: \(error)")
        }
    }

    private func persist(_ grants: [AccessoryID: Grant]) throws(AccessorySetupError) {
        do {
            try store.write(grants)
        } catch {
            logger.error("Cannot write the grant store: \(error)", metadata: ["grant_store": "\(store.path)"])
            throw AccessorySetupError(.unknown, reason: .message("cannot write the grant store: \(error)"))
        }
    }

    private func carryOut(_ decision: AuthorizationDecision) {
        pipeline.index.apply(decision.indexChanges)
        for line in decision.log { write(line) }
        for notice in decision.notices { notify(notice) }
        for order in decision.pairing { carryOut(order) }
        for next in decision.followUps {
            let input = next.input(index: pipeline.index)
            do {
                try transact { core, now, registry throws(AccessorySetupError) in ((), input(&core, now, registry)) }
            } catch {
                if case .approveByPolicy(let number) = next {
                    logger.warning("The approval window could not approve request \(number): \(error)",
                                   metadata: ["request": "\(number)"])
                } else {
                    logger.warning("A decision could not be carried out: \(error)")
                }
            }
        }
        reschedule()
        let demand = core.demand
        if demand != lastDemand {
            lastDemand = demand
            demandChanged(demand)
        }
    }

    /// Arms the scheduler's timer for the core's next deadline. A timer due
    /// before it stays: it fires early, finds nothing due, and re-arms.
    func reschedule() {
        guard let scheduler, let deadline = core.nextDeadline(registry: pipeline.registry) else { return }
        if let armed = timer {
            guard deadline < armed.due else { return }
            scheduler.cancel(armed.token)
        }
        // The pipeline reads the same clock: the core's deadline arms as it is.
        let token = scheduler.at(deadline) { [weak self] in
            self?.timer = nil
            self?.deadlineReached()
        }
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
