import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `org.accessoryagent.Manager1`: opening sessions, and ending an app's persistent ones.
final class ManagerHandler {
    private let connection: BusConnection
    private let replies: ServiceReplies
    private let callers: CallerResolver
    private let sessions: SessionTable
    private let lifetime: SessionLifetime
    private let budget: AppBudget
    private let scheduler: any Scheduler
    private let logger: Logger
    /// Where the manifests come from, named when a caller has none.
    private let manifestDirectories: String
    /// Apps refused a session since they last opened one (logged once).
    private var appsAtSessionLimit: Set<AppID> = []

    init(connection: BusConnection, callers: CallerResolver, sessions: SessionTable, lifetime: SessionLifetime,
         budget: AppBudget, scheduler: any Scheduler, logger: Logger, manifestDirectories: String) {
        self.connection = connection
        replies = ServiceReplies(connection: connection)
        self.callers = callers
        self.sessions = sessions
        self.lifetime = lifetime
        self.budget = budget
        self.scheduler = scheduler
        self.logger = logger
        self.manifestDirectories = manifestDirectories
    }

    func handle(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        guard let method = Manager1.Method(member: call.member) else { return nil }
        return callers.withKnownCaller(call) { [unowned self] caller in
            switch method {
            case .openSession: openSession(call, caller, persistent: false)
            case .openPersistentSession: openSession(call, caller, persistent: true)
            case .endPersistentSessions: endPersistentSessions(call, caller)
            }
        }
    }

    /// `EndPersistentSessions() → u`: the calling app's persistent sessions
    /// end and go at once, so they no longer count against `SessionsPerApp`.
    private func endPersistentSessions(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        guard let app = caller.manifest?.app else { return replies.reply(call) { $0.append(UInt32(0)) } }
        let ending = sessions.open.filter { $0.app == app && $0.persistent }
        for session in ending { lifetime.close(session, why: "ended by the app (EndPersistentSessions)") }
        return replies.reply(call) { $0.append(UInt32(ending.count)) }
    }

    private func openSession(_ call: BusMessage, _ caller: Caller, persistent: Bool) -> BusConnection.MethodOutcome? {
        guard let manifest = caller.manifest else {
            let credentials = caller.credentials
            let who = "uid \(credentials.uid)" + (credentials.userName.map { " (\($0))" } ?? "")
                + (credentials.unit.map { " in \($0)" } ?? "")
            logger.notice("Refused a session to a caller without an app manifest", metadata: [
                "caller.uid": "\(credentials.uid)", "caller.unit": "\(credentials.unit ?? credentials.unitUnknown.map { "unknown: \($0)" } ?? "")",
            ])
            return .error(BusError(
                name: BusErrorNames.name(of: .activationFailed),
                message: "\(who) has no app manifest in \(manifestDirectories)" + (caller.unitNote.map { "; \($0)" } ?? "")))
        }
        do throws(AccessorySetupError) {
            try budget.admitRequest(manifest.app, persistent ? Manager1.openPersistentSession : Manager1.openSession)
        } catch {
            return .error(ServiceReplies.busError(error))
        }
        let limits = budget.limits
        let held = sessions.count(of: manifest.app)
        guard held < limits.sessionsPerApp else {
            // Once until the app opens one again: a flood of refusals is not a flood of log lines.
            if appsAtSessionLimit.insert(manifest.app).inserted {
                logger.notice("Refused a session: \(manifest.app) holds \(held)", metadata: [
                    "app": "\(manifest.app)", "limit": "SessionsPerApp=\(limits.sessionsPerApp)",
                ])
            }
            return .error(ServiceReplies.busError(AccessorySetupError(.invalidRequest, reason: .message(
                sessionLimitRefusal(manifest.app, held: held)))))
        }
        appsAtSessionLimit.remove(manifest.app)
        let session = sessions.add(app: manifest.app, owner: caller.sender, persistent: persistent, now: scheduler.now)
        if persistent {
            lifetime.armSweep()
        } else {
            // A session ends when its caller leaves the bus, as an app's process exits.
            try? connection.whenSenderLeaves(call) { [weak lifetime = self.lifetime] in lifetime?.callerLeft(caller.sender) }
        }
        logger.info("Session opened", metadata: ["app": "\(manifest.app)", "session": "\(session.path)",
                                                 "persistent": "\(persistent)"])
        return replies.reply(call) { $0.append(objectPath: session.path) }
    }

    /// What the refusal at `SessionsPerApp` tells the app: how many of its
    /// sessions are persistent, when the first of them ends by itself, and
    /// how to end them now.
    private func sessionLimitRefusal(_ app: AppID, held: Int) -> String {
        let persistent = sessions.open.filter { $0.app == app && $0.persistent }
        var what = "\(app) holds \(held) sessions"
        if let soonest = lifetime.soonestIdleEnd(of: persistent) {
            let seconds = max(0, soonest.duration(since: scheduler.now).components.seconds)
            let paths = persistent.prefix(4).map(\.path).joined(separator: ", ") + (persistent.count > 4 ? ", …" : "")
            what += ", \(persistent.count) of them persistent (\(paths)); a persistent session ends after "
                + "\(SessionLifetime.persistentIdleLimit.components.seconds / 60) minutes without a call, the first of these within \(seconds) s; "
                + "end them now with Manager1.EndPersistentSessions or Session1.Invalidate on each"
        }
        return budget.limits.refusal(.sessionsPerApp, what)
    }
}
