import AccessoryCore
import AccessoryPlatform
import Logging

/// The pairings setup runs: one `PairingProcedure` per approved request
/// whose accessory needs pairing, its actions carried out on the back end,
/// its one timer on the scheduler, its end told to the authorization center.
/// Owned by the center, on the event loop.
final class SetupPairings {
    var backEnd: (any PairingBackEnd)? {
        didSet { backEnd?.report = { [weak self] device, event in self?.reported(event, for: device) } }
    }
    /// `[Bluetooth] Pairing=` of accessoryd.conf; read when a pairing starts.
    var policy = PairingPolicy.any
    /// PickerSetupPairing for the pairing's session.
    var announce: (PendingPairing) -> Void = { _ in }
    /// The pairing ended: nil when completed (the bond is held for `keepBond`), else why it failed.
    var ended: (PendingPairing, PairingFailure?) -> Void = { _, _ in }

    private struct Run {
        var pending: PendingPairing
        var procedure: PairingProcedure
        var timer: TimerToken?
    }

    private let scheduler: any Scheduler
    private let logger: Logger
    private var runs: [UInt32: Run] = [:]

    init(scheduler: any Scheduler, logger: Logger) {
        self.scheduler = scheduler
        self.logger = logger
    }

    var active: [PendingPairing] { runs.values.map(\.pending).sorted { $0.request < $1.request } }

    func start(_ pending: PendingPairing) {
        let backEnd = backEnd
        // Without a route to the approver the daemon answers Just Works itself and can answer nothing else.
        let approver: PairingApprover = backEnd?.asksApprover == true ? .administrator : .policy
        let subject = PairingProcedure.Subject(request: pending.request, session: pending.session, accessory: pending.accessory,
                                               device: pending.device, approver: approver)
        // The administrator's refusal comes first (the procedure's start says it); then the back end's.
        if policy != .refuse, let refusal = backEnd.map({ $0.refusal }) ?? "no Bluetooth pairing back end" {
            // Told on the loop's next turn, as any other end: the approval's reply goes first.
            scheduler.at(scheduler.now) { [weak self] in self?.ended(pending, .backEndFailed(refusal)) }
            return
        }
        let procedure = PairingProcedure(subject: subject, configuration: .init(policy: policy))
        runs[pending.request] = Run(pending: pending, procedure: procedure)
        step(pending.request) { $0.start(at: $1) }
    }

    /// The request ended before its pairing did (denied, withdrawn, session gone).
    func cancel(request: UInt32) {
        step(request) { $0.cancel(at: $1) }
    }

    private func reported(_ event: PairingBackEndEvent, for device: BluetoothDeviceIdentifier) {
        guard let request = runs.values.first(where: { $0.pending.device == device })?.pending.request else { return }
        step(request) { procedure, now in
            switch event {
            case .connected: procedure.connected(at: now)
            case .connectFailed(let error): procedure.connectFailed(error, at: now)
            case .prompted(let prompt): procedure.prompted(prompt, at: now)
            case .promptCancelled: procedure.promptCancelled(at: now)
            case .paired: procedure.paired(at: now)
            case .pairingFailed(let error): procedure.pairingFailed(error, at: now)
            case .disconnected: procedure.disconnected(at: now)
            }
        }
    }

    /// One input to a run's procedure, its actions carried out, its timer re-armed.
    private func step(_ request: UInt32, _ input: (inout PairingProcedure, MonotonicInstant) -> [PairingProcedure.Action]) {
        guard var run = runs[request] else { return }
        let actions = input(&run.procedure, scheduler.now)
        if let timer = run.timer { scheduler.cancel(timer) }
        run.timer = run.procedure.nextDeadline.map { deadline in
            scheduler.at(deadline) { [weak self] in self?.step(request) { $0.deadlineReached(at: $1) } }
        }
        if run.procedure.phase.isOver { runs[request] = nil } else { runs[request] = run }
        for action in actions { carryOut(action, of: run.pending) }
    }

    private func carryOut(_ action: PairingProcedure.Action, of pending: PendingPairing) {
        switch action {
        case .connect(let device): backEnd?.connect(device)
        case .announcePairing: announce(pending)
        case .pair(let device, let capability): backEnd?.pair(device, capability: capability)
        case .ask(let question, _):
            // Not reached while the back end cannot ask (the approver is `.policy`); nothing to show it on yet.
            logger.warning("Pairing prompt \(question.id) (\(question.prompt.name)) has no approver to go to",
                           metadata: ["request": "\(pending.request)"])
        case .withdraw: break
        case .reply(let reply): backEnd?.reply(reply, to: pending.device)
        case .abandon(let device): backEnd?.abandon(device)
        case .completed: ended(pending, nil)
        case .failed(let failure): ended(pending, failure)
        }
    }
}
