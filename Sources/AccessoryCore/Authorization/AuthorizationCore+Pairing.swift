/// Approval of an accessory whose descriptor asks for pairing
/// (`SupportedOptions=bluetoothPairingLE`): the request stays open while the
/// adapter pairs, and ends with the grant only when the pairing completes.
extension AuthorizationCore {
    /// Reserves the grant's id and asks the adapter to pair; PickerSetupPairing
    /// comes from the pairing itself, once it connected.
    mutating func startPairing(
        _ request: SetupRequest, candidate: UInt32, device: BluetoothDeviceIdentifier, name: String, renamed: Bool,
        decidedBy decider: String, approver: PairingApprover
    ) -> AuthorizationDecision {
        let pending = PendingPairing(request: request.number, session: request.session, app: request.app, candidate: candidate,
                                     name: name, renamed: renamed, decidedBy: decider, approver: approver,
                                     accessory: ids.next(avoiding: grants), device: device)
        pairings[request.number] = pending
        var decision = AuthorizationDecision()
        decision.pairing.append(.start(pending))
        decision.log(.setupPairingStarted, .notice,
                     "\(name) (\(device)) approved for \(request.app) by \(decider); pairing it before it is granted",
                     ["app": "\(request.app)", "accessory.id": "\(pending.accessory)", "request": "\(request.number)",
                      "identity": "\(device)", "decided_by": "\(decider)"])
        return decision
    }

    /// The pairing of request `number` completed and its bond is kept: grant
    /// as an approval without pairing would have, with the reserved id.
    /// `identity` is the address the bond names: the accessory's identity
    /// address when it shared one (it was heard under a private address
    /// that it will leave), else the address it was heard under. The grant
    /// takes it, so discovery, presence and channels follow the accessory
    /// as its IRK resolves every later address to it.
    public mutating func completePairing(
        _ number: UInt32, identity: BluetoothDeviceIdentifier? = nil, registry: AccessoryRegistry, at now: MonotonicInstant
    ) throws(AccessorySetupError) -> (accessories: [AccessoryID], decision: AuthorizationDecision) {
        guard let pending = pairings[number], let request = requests[number],
              var chosen = request.candidate(pending.candidate) else {
            throw AccessorySetupError(.invalidRequest, reason: .message("no pairing under way for request \(number)"))
        }
        if let identity { chosen.identity = .bluetooth(identity) }
        if let holder = grants.holder(of: chosen.identity) {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(chosen.identity) is already granted\(holder.app == request.app ? "" : " to another app")"))
        }
        // Gone before close() looks, so the grant's own end cancels nothing.
        pairings[number] = nil
        return try grantApproved(request, candidate: chosen, id: pending.accessory, name: pending.name, renamed: pending.renamed,
                                 decidedBy: pending.decidedBy, registry: registry, at: now)
    }

    /// The pairing of request `number` failed: the request ends, the app
    /// hears PickerSetupFailed and PickerDidDismiss with `failure`, nothing is granted.
    public mutating func failPairing(_ number: UInt32, failure: PairingFailure) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        guard let pending = pairings.removeValue(forKey: number), let request = requests[number] else { return decision }
        close(request, into: &decision)
        decision.log(.setupPairingFailed, .warning,
                     "Pairing \(pending.name) (\(pending.device)) for \(request.app) failed (\(failure.name)): \(failure); nothing was granted",
                     ["app": "\(request.app)", "accessory.id": "\(pending.accessory)", "request": "\(number)",
                      "identity": "\(pending.device)", "reason": "\(failure.name)"])
        let error = failure.setupError(accessoryName: pending.name)
        decision.notify(.session(request.session, .pickerSetupFailed(error)))
        decision.notify(.session(request.session, .pickerDidDismiss(error)))
        decision.notify(.agent(.requestEnded(number, outcome: "pairing failed")))
        return decision
    }
}
