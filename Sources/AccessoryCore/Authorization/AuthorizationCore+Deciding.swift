/// Deciding on requests: approval (by an administrator, an agent or an open
/// approval window), denial, and the app withdrawing its own request.
extension AuthorizationCore {
    /// Approves candidate `candidate` of request `number` (0 for every item of
    /// a migration). `name` renames it when the item allows renaming.
    /// Returns the accessories granted; for one that needs pairing, the id
    /// it will have, granted only if the pairing completes (`completePairing`);
    /// `approver` answers that pairing's prompts.
    public mutating func approve(
        _ number: UInt32, candidate: UInt32, name: String?, decidedBy decider: String, approver: PairingApprover,
        registry: AccessoryRegistry, at now: MonotonicInstant
    ) throws(AccessorySetupError) -> (accessories: [AccessoryID], decision: AuthorizationDecision) {
        guard let request = requests[number] else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no pending request \(number)"))
        }
        if request.isMigration { return try approveMigration(request, decidedBy: decider) }
        if let pairing = pairings[number] {
            throw AccessorySetupError(.invalidRequest, reason: .message("request \(number) is pairing \(DisplayText.quoted(pairing.name)) already"))
        }
        guard let chosen = request.candidate(candidate), chosen.visible else {
            throw AccessorySetupError(.invalidRequest, reason: .message("request \(number) has no candidate \(candidate)"))
        }
        let item = request.pickerItems[chosen.item]
        let renamed = name.flatMap { $0.isEmpty ? nil : $0 }
        if renamed != nil, !item.setupOptions.contains(.rename) {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(request.app) did not offer renaming \(item.name)"))
        }
        if let holder = grants.holder(of: chosen.identity) {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(chosen.identity) is already granted\(holder.app == request.app ? "" : " to another app")"))
        }
        if item.descriptor.supportedOptions.contains(.bluetoothPairingLE), case .bluetooth(let device) = chosen.identity {
            let decision = startPairing(request, candidate: candidate, device: device, name: renamed ?? chosen.name,
                                        renamed: renamed != nil, decidedBy: decider, approver: approver)
            return (pairings[number].map { [$0.accessory] } ?? [], decision)
        }
        return try grantApproved(request, candidate: chosen, id: ids.next(avoiding: grants), name: renamed ?? chosen.name,
                                 renamed: renamed != nil, decidedBy: decider, registry: registry, at: now)
    }

    /// The grant of an approved candidate, at once or once its pairing completed.
    mutating func grantApproved(
        _ request: SetupRequest, candidate chosen: SetupCandidate, id: AccessoryID, name: String, renamed: Bool,
        decidedBy decider: String, registry: AccessoryRegistry, at now: MonotonicInstant
    ) throws(AccessorySetupError) -> (accessories: [AccessoryID], decision: AuthorizationDecision) {
        let number = request.number
        let item = request.pickerItems[chosen.item]
        let grant = Self.grant(id, app: request.app, name: name,
                               state: item.needsAppAuthorization ? .awaitingAuthorization : .authorized,
                               identity: chosen.identity, descriptor: item.descriptor)
        var decision = AuthorizationDecision()
        decision.grantWrite = .save(grant)  // durable before anyone is told
        grants.save(grant)
        close(request, into: &decision)
        // Just heard, or it could not have been picked: present from the start, no news to the app.
        if GrantPresence.isPresent(grant, in: registry, at: now) {
            presence.markReported(grant.accessory)
            _ = presence.advertisementChanged(grant.accessory, to: chosen.advertisingData)
        }
        decision.log(.accessoryApproved, .notice, "\(grant.displayName) (\(chosen.identity)) approved for \(request.app) by \(decider)",
                     ["app": "\(request.app)", "accessory.id": "\(grant.accessory)", "request": "\(number)",
                      "identity": "\(chosen.identity)", "decided_by": "\(decider)", "state": "\(grant.state.rawValue)"])
        decision.notify(.app(request.app, .accessoryAdded(grant.accessory)))
        if renamed { decision.notify(.session(request.session, .pickerSetupRename(grant.accessory))) }
        decision.notify(.session(request.session, .pickerDidDismiss(nil)))
        decision.notify(.agent(.requestEnded(number, outcome: "approved")))
        return ([grant.accessory], decision)
    }

    /// A migration is approved whole or not at all. An item another app
    /// holds makes the approval fail, telling the administrator which and
    /// whose; the app hears nothing of it, and whatever the administrator
    /// then does (deny, or remove the other grant and approve) reaches the
    /// app as it would without the other app. Items the app holds already
    /// are skipped: it knows its own.
    private mutating func approveMigration(
        _ request: SetupRequest, decidedBy decider: String
    ) throws(AccessorySetupError) -> (accessories: [AccessoryID], decision: AuthorizationDecision) {
        guard case .migration(let items) = request.kind else { return ([], AuthorizationDecision()) }
        let othersHold = items.compactMap { item -> String? in
            guard let holder = grants.holder(of: item.identity), holder.app != request.app else { return nil }
            return "\(DisplayText.quoted(item.name)) (\(item.identity)) is \(holder.app)'s accessory \(holder.accessory)"
        }
        if !othersHold.isEmpty {
            throw AccessorySetupError(.invalidRequest, reason: .message(
                "request \(request.number): \(othersHold.prefix(8).joined(separator: "; "))\(othersHold.count > 8 ? "; …" : ""); "
                    + "a migration is approved whole, so nothing was granted: deny it, or remove that accessory first"))
        }
        var added: [Grant] = []
        for item in items where grants.holder(of: item.identity) == nil {
            let grant = Self.grant(ids.next(avoiding: grants), app: request.app, name: item.name, state: .authorized,
                                   identity: item.identity, descriptor: item.descriptor)
            grants.save(grant)
            added.append(grant)
        }
        var decision = AuthorizationDecision()
        decision.grantWrite = .saveAll(added)
        close(request, into: &decision)
        let skipped = items.count - added.count
        decision.log(.accessoriesMigrated, .notice,
                     "\(added.count) known accessory(ies) registered for \(request.app) by \(decider)"
                        + (skipped > 0 ? "; \(skipped) skipped, already \(request.app)'s" : ""),
                     ["app": "\(request.app)", "request": "\(request.number)", "count": "\(added.count)",
                      "skipped": "\(skipped)", "decided_by": "\(decider)",
                      "accessory.ids": .array(added.map { "\($0.accessory)" })])
        for grant in added { decision.notify(.app(request.app, .accessoryAdded(grant.accessory))) }
        decision.notify(.session(request.session, .migrationComplete))
        decision.notify(.session(request.session, .pickerDidDismiss(nil)))
        decision.notify(.agent(.requestEnded(request.number, outcome: "approved")))
        return (added.map(\.accessory), decision)
    }

    private static func grant(
        _ id: AccessoryID, app: AppID, name: String, state: AuthorizationState, identity: DeviceIdentity,
        descriptor: DiscoveryDescriptor
    ) -> Grant {
        var grant = Grant(accessory: id, app: app, displayName: name, state: state, descriptor: descriptor)
        switch identity {
        case .bluetooth(let device): grant.bluetooth = device
        case .wifi(let ssid): grant.ssid = ssid
        }
        return grant
    }

    public mutating func deny(_ number: UInt32, decidedBy decider: String) throws(AccessorySetupError) -> AuthorizationDecision {
        guard let request = requests[number] else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no pending request \(number)"))
        }
        return dismiss(request, decidedBy: decider, why: "denied by \(decider)", outcome: "denied")
    }

    /// `DismissPicker()`: the app gave up on its own request (picker or
    /// migration), as the person would dismiss ASK's picker. Ends like a
    /// denial, so a late approval finds nothing to grant.
    public mutating func withdraw(session: UInt64) throws(AccessorySetupError) -> AuthorizationDecision {
        guard let request = requests.request(ofSession: session) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no picker is open"))
        }
        // "cancelled", as when the app's session ends: to an agent, the app no longer asks.
        return dismiss(request, decidedBy: Self.appDecider(request.app), why: "withdrawn by the app", outcome: "cancelled")
    }

    /// A request refused before it was granted: the app hears `userCancelled`, the agent that it ended.
    private mutating func dismiss(_ request: SetupRequest, decidedBy decider: String, why: String, outcome: String) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        close(request, into: &decision)
        decision.log(.requestDenied, .notice, "\(request.app)'s request \(request.number) \(why)",
                     ["app": "\(request.app)", "request": "\(request.number)", "decided_by": "\(decider)"])
        decision.notify(.session(request.session, .pickerDidDismiss(AccessorySetupError(.userCancelled, reason: .message(why)))))
        decision.notify(.agent(.requestEnded(request.number, outcome: outcome)))
        return decision
    }

    /// The policy answers only while the app's window is open and no agent
    /// is registered: the first visible candidate of a picker. A migration
    /// always waits for an administrator: whether the policy could approve
    /// it would depend on what other apps hold, and the app would see that.
    /// A refusal is a warning in the journal, never an error to anyone.
    public mutating func approveByPolicy(
        _ number: UInt32, registry: AccessoryRegistry, at now: MonotonicInstant
    ) -> AuthorizationDecision {
        guard agent == nil, let request = requests[number], !request.isMigration, windows.isOpen(for: request.app, at: now) else {
            return AuthorizationDecision()
        }
        guard let candidate = request.visibleCandidates.first?.number else { return AuthorizationDecision() }
        do {
            return try approve(number, candidate: candidate, name: nil, decidedBy: Self.policyDecider, approver: .policy,
                               registry: registry, at: now).decision
        } catch {
            var decision = AuthorizationDecision()
            decision.log(nil, .warning, "The approval window could not approve request \(number): \(error)",
                         ["app": "\(request.app)", "request": "\(number)"])
            return decision
        }
    }
}
