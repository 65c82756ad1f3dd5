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
    /// A question for the approver, and its end; for an agent, its PickerAgent1 calls.
    var asked: (PairingQuestion, PairingApprover) -> Void = { _, _ in }
    var withdrawn: (PairingQuestion.ID, PairingApprover) -> Void = { _, _ in }

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

    /// The questions open now, oldest request first, with the pairing each belongs to.
    var questions: [(pending: PendingPairing, question: PairingQuestion, approver: PairingApprover)] {
        runs.values.sorted { $0.pending.request < $1.pending.request }.compactMap { run in
            run.procedure.question.map { (run.pending, $0, run.procedure.subject.approver) }
        }
    }

    /// `answerer` answers question `id`; a refused answer changes nothing and says why.
    func answer(_ answer: PairingAnswer, to id: PairingQuestion.ID, from answerer: PairingApprover) throws(PairingAnswerError) {
        guard var run = runs[id.request] else { throw .noSuchQuestion(id) }
        let actions = try run.procedure.answer(answer, to: id, from: answerer, at: scheduler.now)
        runs[id.request] = run
        // An administrator answered in the agent's place: its screen still shows the question.
        let approver = run.procedure.subject.approver
        if case .agent = approver, answerer != approver { withdrawn(id, approver) }
        logger.info("Pairing question \(id) answered by \(answerer)",
                    metadata: ["request": "\(id.request)", "answered_by": "\(answerer)"])
        step(id.request) { _, _ in actions }
    }

    func start(_ pending: PendingPairing) {
        let backEnd = backEnd
        // A back end that cannot put prompts to the approver answers Just Works itself and nothing else.
        let approver: PairingApprover = backEnd?.asksApprover == true ? pending.approver : .policy
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
        for action in actions { carryOut(action, of: run.pending, approver: run.procedure.subject.approver) }
    }

    private func carryOut(_ action: PairingProcedure.Action, of pending: PendingPairing, approver: PairingApprover) {
        switch action {
        case .connect(let device): backEnd?.connect(device)
        case .announcePairing: announce(pending)
        case .pair(let device, let capability): backEnd?.pair(device, capability: capability)
        case .ask(let question, _):
            // The prompt's kind only: a number is for the approver, not the journal.
            logger.notice("Pairing \(pending.name) asks the \(approver) for a \(question.prompt.name) (question \(question.id))",
                          metadata: ["request": "\(pending.request)", "question": "\(question.id)", "approver": "\(approver)"])
            asked(question, approver)
        case .withdraw(let id):
            withdrawn(id, approver)
        case .reply(let reply): backEnd?.reply(reply, to: pending.device)
        case .abandon(let device): backEnd?.abandon(device)
        case .completed: ended(pending, nil)
        case .failed(let failure): ended(pending, failure)
        }
    }
}
