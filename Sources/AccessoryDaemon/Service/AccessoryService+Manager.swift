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
        default: return nil
        }
    }

    private func openSession(_ call: BusMessage, persistent: Bool) -> BusConnection.MethodOutcome? {
        let caller: Caller
        do { caller = try self.caller(call) } catch { return .error(error) }
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
        let held = sessions.values.filter { $0.app == manifest.app }.count
        guard held < limits.sessionsPerApp else {
            // Once until the app opens one again: a flood of refusals is not a flood of log lines.
            if appsAtSessionLimit.insert(manifest.app).inserted {
                logger.notice("Refused a session: \(manifest.app) holds \(held)", metadata: [
                    "app": "\(manifest.app)", "limit": "SessionsPerApp=\(limits.sessionsPerApp)",
                ])
            }
            return .error(busError(AccessorySetupError(.invalidRequest, reason: .message(
                limits.refusal(.sessionsPerApp, "\(manifest.app) holds \(held) sessions")))))
        }
        appsAtSessionLimit.remove(manifest.app)
        let session = AccessorySession(number: nextSession, app: manifest.app, owner: caller.sender,
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
    func end(_ session: AccessorySession, why: String) {
        session.invalidate()
        sessionStateChanged(session)
        closeChannels(of: session)
        leaveHotspot(of: session, why: "the session ended: \(why)")
        center.sessionEnded(session.number)
        logger.info("Session ended: \(why)", metadata: ["app": "\(session.app)", "session": "\(session.path)"])
    }

    private func armSweep() {
        guard !sweepArmed, let loop else { return }
        // On the service's clock, which is the loop's (SystemMonotonicClock): idle limits
        // read from `lastCall` and the sweep's deadline count the same seconds, suspend included.
        sweepArmed = (try? loop.at(clock.now.advanced(by: .seconds(60))) { [weak self] in
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
        }) != nil
    }
}
