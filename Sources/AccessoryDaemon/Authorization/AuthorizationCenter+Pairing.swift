import AccessoryCore
import AccessoryPlatform

/// Pairing during setup, between the core and the pairing back end: the
/// grant follows a completed pairing only once its bond is durable, and a
/// failure anywhere keeps neither.
extension AuthorizationCenter {
    /// `[Bluetooth] Pairing=`, applied to pairings that start from now on.
    public var pairingPolicy: PairingPolicy {
        get { pairings?.policy ?? .any }
        set { pairings?.policy = newValue }
    }

    /// Where setup pairs; nil: no pairing can run (it fails by name).
    public var pairingBackEnd: (any PairingBackEnd)? {
        get { pairings?.backEnd }
        set { pairings?.backEnd = newValue }
    }

    /// The pairing questions open now, oldest request first.
    public var pairingQuestions: [(pending: PendingPairing, question: PairingQuestion, approver: PairingApprover)] {
        pairings?.questions ?? []
    }

    /// `decider` answers question `id`: the approver's agent, or an administrator.
    public func answerPairing(_ answer: PairingAnswer, to id: PairingQuestion.ID, by decider: Decider) throws(PairingAnswerError) {
        guard let pairings else { throw .noSuchQuestion(id) }
        try pairings.answer(answer, to: id, from: decider.pairingApprover)
    }

    func carryOut(_ order: SetupPairingOrder) {
        switch order {
        case .start(let pending):
            guard let pairings else {
                apply { core, _, _ in core.failPairing(pending.request, failure: .backEndFailed("no pairing without the event loop")) }
                return
            }
            pairings.start(pending)
        case .cancel(let request): pairings?.cancel(request: request)
        case .removeBond(let accessory, let device): pairingBackEnd?.removeBond(of: accessory, device: device)
        }
    }

    func pairingEnded(_ pending: PendingPairing, _ failure: PairingFailure?) {
        if let failure {
            apply { core, _, _ in core.failPairing(pending.request, failure: failure) }
            return
        }
        let backEnd = pairingBackEnd
        let identity: BluetoothDeviceIdentifier?
        do {
            identity = try backEnd?.keepBond(of: pending.device, for: pending.accessory)
        } catch {
            backEnd?.abandon(pending.device)
            apply { core, _, _ in core.failPairing(pending.request, failure: .backEndFailed("cannot store the bond: \(error)")) }
            return
        }
        do {
            _ = try transact { core, now, registry throws(AccessorySetupError) in
                try core.completePairing(pending.request, identity: identity, registry: registry, at: now)
            }
        } catch {
            // The grant was not kept: neither is the bond.
            backEnd?.removeBond(of: pending.accessory, device: identity ?? pending.device)
            apply { core, _, _ in core.failPairing(pending.request, failure: .backEndFailed("\(error)")) }
        }
    }
}
