/// Who decides besides the administrator: approval windows (the policy) and
/// the picker agent; and what time alone decides.
extension AuthorizationCore {
    public mutating func allow(_ app: AppID, for duration: Duration, decidedBy decider: String, at now: MonotonicInstant) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        windows.open(for: app, until: now.advanced(by: duration))
        decision.log(.approvalWindowOpened, .notice, "Approval window open for \(app) for \(duration) by \(decider)",
                     ["app": "\(app)", "window.seconds": "\(duration.components.seconds)", "decided_by": "\(decider)"])
        for request in requests.inOrder where request.app == app { decision.followUp(.approveByPolicy(request.number)) }
        return decision
    }

    public mutating func disallow(_ app: AppID, decidedBy decider: String) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        guard windows.close(for: app) else { return decision }
        decision.log(.approvalWindowClosed, .notice, "Approval window for \(app) closed by \(decider)",
                     ["app": "\(app)", "decided_by": "\(decider)"])
        return decision
    }

    /// A second agent is refused (`pickerAlreadyActive`); the one registered
    /// hears of every open request, so an agent started late misses nothing.
    public mutating func registerAgent(name: String, path: String) throws(AccessorySetupError) -> AuthorizationDecision {
        try agents.register(PickerAgent(name: name, path: path))
        var decision = AuthorizationDecision()
        decision.log(.agentRegistered, .notice, "Picker agent \(name) registered at \(path)",
                     ["agent": "\(name)", "agent.path": "\(path)"])
        for request in requests.inOrder {
            decision.notify(.agent(.requestAdded(request)))
            for candidate in request.visibleCandidates { decision.notify(.agent(.candidateAdded(request, candidate))) }
        }
        return decision
    }

    /// Nil when `name` was not the agent. Once it is gone, open windows may
    /// answer the requests it left.
    public mutating func unregisterAgent(name: String, reason: String) -> AuthorizationDecision? {
        guard agents.unregister(name: name) else { return nil }
        var decision = AuthorizationDecision()
        decision.log(.agentUnregistered, .notice, "Picker agent \(name) \(reason)", ["agent": "\(name)"])
        for request in requests.inOrder { decision.followUp(.approveByPolicy(request.number)) }
        return decision
    }

    /// What is due by `now`: discovery timeouts, windows closing, granted
    /// accessories silent for longer than the registry allows them.
    public mutating func deadlineReached(registry: AccessoryRegistry, at now: MonotonicInstant) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        for number in requests.discoveryOver(at: now) {
            endDiscovery(number, why: "nothing matching was found within the discovery timeout", into: &decision)
        }
        for app in windows.expire(at: now) {
            decision.log(.approvalWindowClosed, .notice, "Approval window for \(app) ran out", ["app": "\(app)"])
        }
        for id in presence.reported.sorted() {
            guard let grant = grants[id], !GrantPresence.isPresent(grant, in: registry, at: now) else { continue }
            presence.forget(id)
            decision.notify(.presence(grant, present: false, rssi: nil))
        }
        return decision
    }
}
