import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// Wakes apps whose observed accessory appeared (`ObservePresence`): the
/// adapter of `WakeStateMachine`. It follows the authorization center's
/// notices (presence, advertisements, removals), asks the machine, and
/// carries out its actions: a short note sent to the app's wake socket
/// (its manifest's `WakeSocket=`; systemd starts the app's service for the
/// connection), the journal, and one timer for the machine's next
/// deadline. Only socket activation is used: accessoryd needs no privilege
/// to wake an app (README, "Waking an app when its accessory appears").
public final class AppWaker {
    /// Where an app's wake socket listens, or why it cannot be used.
    public typealias Resolve = (AppManifest, @escaping (Result<String, WakeSocketRefusal>) -> Void) -> Void

    private var machine: WakeStateMachine
    private let logger: Logger
    /// The time and the timer: the loop's (it outlives the waker), or a manual one in tests.
    private unowned let scheduler: any Scheduler
    private let apps: () -> AppManifestCatalog
    private let appsWithSessions: () -> Set<AppID>
    private let resolve: Resolve
    /// Checked wake sockets, per app, for the manifest they were checked against.
    private var resolved: [AppID: (manifest: AppManifest, outcome: Result<String, WakeSocketRefusal>)] = [:]
    /// Each observed accessory's latest advertisement, for the note (bounded by the grants observed).
    private var latest: [AccessoryID: (rssi: Int?, data: [UInt8])] = [:]
    private var timer: (token: TimerToken, due: MonotonicInstant)?
    /// Whether the accessory's grant still holds the wish, asked before each
    /// wake: a wish withdrawn while a wake was held back ends it.
    public var isObserved: (AccessoryID) -> Bool = { _ in true }

    public init(
        configuration: WakeStateMachine.Configuration = .init(), logger: Logger, scheduler: any Scheduler,
        apps: @escaping () -> AppManifestCatalog, appsWithSessions: @escaping () -> Set<AppID>, resolve: @escaping Resolve
    ) {
        machine = WakeStateMachine(configuration: configuration)
        self.logger = logger
        self.scheduler = scheduler
        self.apps = apps
        self.appsWithSessions = appsWithSessions
        self.resolve = resolve
    }

    /// The daemon's resolver: systemd's D-Bus API, on the system bus.
    public static func systemdResolver(_ connection: BusConnection) -> Resolve {
        let check = WakeSocketCheck(connection: connection)
        return { manifest, completion in
            guard let unit = manifest.wakeSocket else {
                completion(.failure(WakeSocketRefusal("(none)", "is not set: the manifest has no WakeSocket=")))
                return
            }
            check.facts(of: unit) { facts in completion(facts.flatMap { $0.verdict(for: manifest) }) }
        }
    }

    // MARK: Inputs

    /// The manifests were (re)loaded: every wake socket is checked again, now,
    /// so a bad one is in the journal at start and on reload, not at the first wake.
    public func manifestsLoaded() {
        resolved = [:]
        for manifest in apps().manifests.values.sorted(by: { $0.app < $1.app }) where manifest.wakeSocket != nil {
            check(manifest) { _ in }
        }
    }

    /// Every notice of the authorization center, after the D-Bus service had it.
    public func take(_ notice: AuthorizationNotice) {
        switch notice {
        case .presence(let grant, let present, _):
            guard grant.observesPresence else {
                machine.stopped(grant.accessory)
                latest[grant.accessory] = nil
                return
            }
            if present {
                let now = self.now
                let actions = machine.appeared(grant.accessory, app: grant.app,
                                               appHasSession: appsWithSessions().contains(grant.app), at: now)
                // On the loop's next turn: the advertisement that made it present
                // comes in a notice right after this one, and goes in the note.
                scheduler.at(now) { [weak self] in self?.carryOut(actions) }
            } else {
                machine.left(grant.accessory)
            }
        case .advertisement(let grant, let rssi, let data):
            if grant.observesPresence { latest[grant.accessory] = (rssi, data) }
        case .app(_, .accessoryRemoved(let id)):
            machine.stopped(id)
            latest[id] = nil
        default:
            return
        }
        reschedule()
    }

    /// The loop's timer: held-back wakes whose wait is over.
    public func deadlineReached() {
        carryOut(machine.deadlineReached(appsWithSessions: appsWithSessions(), at: now))
        reschedule()
    }

    // MARK: Carrying out

    private func carryOut(_ actions: [WakeStateMachine.Action]) {
        for action in actions {
            switch action {
            case .wake(let id, let app): wake(id, app: app)
            case .deferred(let id, let app, let until):
                logger.debug("Waking \(app) for \(id) is held back until \(until) (at most one wake per accessory per \(machine.configuration.interval))",
                             metadata: ["app": "\(app)", "accessory.id": "\(id)"])
            case .backedOff(let id, let app, let failures, let until):
                logger.info("Waking \(app) for \(id) failed \(failures) time(s) in a row; next try not before \(until)",
                            metadata: ["app": "\(app)", "accessory.id": "\(id)", "wake.failures": "\(failures)"])
            }
        }
    }

    private func wake(_ id: AccessoryID, app: AppID) {
        guard isObserved(id) else {
            machine.stopped(id)
            latest[id] = nil
            return
        }
        guard let manifest = apps().manifests[app], let unit = manifest.wakeSocket else {
            failed(id, app: app, unit: "(none)", why: "the app's manifest no longer names a WakeSocket=")
            return
        }
        check(manifest) { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .failure(let refusal): failed(id, app: app, unit: unit, why: refusal.description)
            case .success(let path):
                do throws(SystemError) {
                    try UnixStreamNote.send(note(id), to: path)
                    machine.woke(id)
                    logger.log(.appWoken, level: .notice, "Woke \(app) through \(unit): its accessory \(id) appeared",
                               metadata: ["app": "\(app)", "accessory.id": "\(id)", "unit": "\(unit)", "wake.socket": "\(path)"])
                } catch {
                    // Refused or gone: systemd gave up on the socket, or the package was removed. Checked again next time.
                    resolved[app] = nil
                    failed(id, app: app, unit: unit, why: "\(error)")
                }
            }
            reschedule()
        }
    }

    private func failed(_ id: AccessoryID, app: AppID, unit: String, why: String) {
        logger.log(.appWakeFailed, level: .warning, "Cannot wake \(app) through \(unit) for its accessory \(id): \(why)",
                   metadata: ["app": "\(app)", "accessory.id": "\(id)", "unit": "\(unit)", "error": "\(why)"])
        carryOut(machine.wakeFailed(id, at: now))
    }

    /// The note the woken app reads from the connection: which accessory, and why.
    /// One `KEY=value` line each; the app opens its session and learns the rest there.
    func note(_ id: AccessoryID) -> [UInt8] {
        var text = "ACCESSORY=\(BusNames.path(of: id))\nREASON=appeared\n"
        if let advertisement = latest[id] {
            if let rssi = advertisement.rssi { text += "RSSI=\(rssi)\n" }
            text += "ADVERTISEMENT=\(hexString(advertisement.data))\n"
        }
        return Array(text.utf8)
    }

    private func check(_ manifest: AppManifest, _ completion: @escaping (Result<String, WakeSocketRefusal>) -> Void) {
        if let known = resolved[manifest.app], known.manifest == manifest { completion(known.outcome); return }
        resolve(manifest) { [weak self] outcome in
            guard let self else { return }
            // A reload meanwhile may have changed the manifest: keep only what was checked against the current one.
            if apps().manifests[manifest.app] == manifest {
                let changed = resolved[manifest.app].map { "\($0.outcome)" != "\(outcome)" } ?? true
                resolved[manifest.app] = (manifest, outcome)
                if changed, case .failure(let refusal) = outcome {
                    logger.log(.appWakeFailed, level: .warning, "\(manifest.app) cannot be woken: \(refusal)",
                               metadata: ["app": "\(manifest.app)", "unit": "\(refusal.unit)", "error": "\(refusal.reason)"])
                }
            }
            completion(outcome)
        }
    }

    private var now: MonotonicInstant { scheduler.now }

    private func reschedule() {
        guard let deadline = machine.nextDeadline else {
            if let armed = timer { scheduler.cancel(armed.token); timer = nil }
            return
        }
        if let armed = timer {
            if armed.due == deadline { return }
            scheduler.cancel(armed.token)
        }
        timer = nil
        let token = scheduler.at(deadline) { [weak self] in
            self?.timer = nil
            self?.deadlineReached()
        }
        timer = (token, deadline)
    }
}
