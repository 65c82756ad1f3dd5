import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `org.accessoryagent.Manager1`: opening sessions.
extension AccessoryService {
    func handleManager(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        switch call.member {
        case Manager1.openSession.name: return openSession(call, persistent: false)
        case Manager1.openPersistentSession.name: return openSession(call, persistent: true)
        case Manager1.endPersistentSessions.name: return endPersistentSessions(call)
        default: return nil
        }
    }

    /// `EndPersistentSessions() → u`: the calling app's persistent sessions
    /// end and go at once, so they no longer count against `SessionsPerApp`.
    private func endPersistentSessions(_ call: BusMessage) -> BusConnection.MethodOutcome? {
        withCaller(call) { [unowned self] caller in
            switch caller {
            case .success(let caller): endPersistentSessions(call, caller)
            case .failure(let error): .error(error)
            }
        }
    }

    private func endPersistentSessions(_ call: BusMessage, _ caller: Caller) -> BusConnection.MethodOutcome? {
        guard let app = caller.manifest?.app else { return reply(call) { $0.append(UInt32(0)) } }
        let ending = openSessions.filter { $0.app == app && $0.persistent }
        for session in ending {
            if session.state != .invalidated { end(session, why: "ended by the app (EndPersistentSessions)") }
            sessions.removeValue(forKey: session.number)
        }
        return reply(call) { $0.append(UInt32(ending.count)) }
    }

    /// What the refusal at `SessionsPerApp` tells the app: how many of its
    /// sessions are persistent, when the first of them ends by itself, and
    /// how to end them now.
    func sessionLimitRefusal(_ app: AppID, held: Int) -> String {
        let persistent = openSessions.filter { $0.app == app && $0.persistent }
        var what = "\(app) holds \(held) sessions"
        if !persistent.isEmpty {
            let now = clock.now
            // The sweep runs every minute: an idle session goes within a minute of its limit.
            let soonest = persistent.map { $0.lastCall.advanced(by: Self.persistentIdleLimit + .seconds(60)) }.min()!
            let seconds = max(0, soonest.duration(since: now).components.seconds)
            let paths = persistent.prefix(4).map(\.path).joined(separator: ", ") + (persistent.count > 4 ? ", …" : "")
            what += ", \(persistent.count) of them persistent (\(paths)); a persistent session ends after "
                + "\(Self.persistentIdleLimit.components.seconds / 60) minutes without a call, the first of these within \(seconds) s; "
                + "end them now with Manager1.EndPersistentSessions or Session1.Invalidate on each"
        }
        return limits.refusal(.sessionsPerApp, what)
    }

    private func openSession(_ call: BusMessage, persistent: Bool) -> BusConnection.MethodOutcome? {
        withCaller(call) { [unowned self] caller in
            switch caller {
            case .success(let caller): openSession(call, caller, persistent: persistent)
            case .failure(let error): .error(error)
            }
        }
    }

    private func openSession(_ call: BusMessage, _ caller: Caller, persistent: Bool) -> BusConnection.MethodOutcome? {
        guard let manifest = caller.manifest else {
            let credentials = caller.credentials
            let who = "uid \(credentials.uid)" + (credentials.userName.map { " (\($0))" } ?? "")
                + (credentials.unit.map { " in \($0)" } ?? "")
            logger.notice("Refused a session to a caller without an app manifest", metadata: [
                "caller.uid": "\(credentials.uid)", "caller.unit": "\(credentials.unit ?? "")",
            ])
            return .error(BusError(
                name: BusErrorNames.name(of: .activationFailed),
                message: "\(who) has no app manifest in \(manifestDirectories)"))
        }
        do throws(AccessorySetupError) {
            try admitRequest(manifest.app, persistent ? Manager1.openPersistentSession.name : Manager1.openSession.name)
        } catch {
            return .error(busError(error))
        }
        let held = sessions.values.filter { $0.app == manifest.app }.count
        guard held < limits.sessionsPerApp else {
            // Once until the app opens one again: a flood of refusals is not a flood of log lines.
            if appsAtSessionLimit.insert(manifest.app).inserted {
                logger.notice("Refused a session: \(manifest.app) holds \(held)", metadata: [
                    "app": "\(manifest.app)", "limit": "SessionsPerApp=\(limits.sessionsPerApp)",
                ])
            }
            return .error(busError(AccessorySetupError(.invalidRequest, reason: .message(
                sessionLimitRefusal(manifest.app, held: held)))))
        }
        appsAtSessionLimit.remove(manifest.app)
        let session = ServiceSession(number: nextSession, app: manifest.app, owner: caller.sender,
                                       persistent: persistent, now: clock.now)
        nextSession += 1
        sessions[session.number] = session
        if persistent {
            armSweep()
        } else {
            // A session ends when its caller leaves the bus, as an app's process exits.
            try? connection.whenSenderLeaves(call) { [weak self] in self?.callerLeft(caller.sender) }
        }
        logger.info("Session opened", metadata: ["app": "\(manifest.app)", "session": "\(session.path)",
                                                 "persistent": "\(persistent)"])
        return reply(call) { $0.append(objectPath: session.path) }
    }

    private func callerLeft(_ owner: String) {
        for session in openSessions where session.owner == owner && !session.persistent {
            if session.state != .invalidated { end(session, why: "its caller left the bus") }
            sessions.removeValue(forKey: session.number)
        }
    }

    /// Ends a session for good: its picker is dismissed. The object stays
    /// (answering `invalidated`) until its caller leaves the bus.
    func end(_ session: ServiceSession, why: String) {
        session.invalidate()
        sessionStateChanged(session)
        closeChannels(of: session)
        leaveHotspot(of: session, why: "the session ended: \(why)")
        center.sessionEnded(session.number)
        logger.info("Session ended: \(why)", metadata: ["app": "\(session.app)", "session": "\(session.path)"])
    }

    private func armSweep() {
        guard !sweepArmed else { return }
        // On the service's scheduler: idle limits read from `lastCall` and the
        // sweep's deadline count the same seconds, suspend included.
        sweepArmed = true
        scheduler.at(scheduler.now.advanced(by: .seconds(60))) { [weak self] in
            guard let self else { return }
            sweepArmed = false
            let now = clock.now
            // An invalidated one goes at once: it would only count against SessionsPerApp.
            for session in openSessions where session.persistent
                && (session.state == .invalidated || session.lastCall.advanced(by: Self.persistentIdleLimit) <= now) {
                if session.state != .invalidated { end(session, why: "idle for \(Self.persistentIdleLimit)") }
                sessions.removeValue(forKey: session.number)
            }
            if openSessions.contains(where: \.persistent) { armSweep() }
        }
    }
}
