@testable import AccessoryCore

/// A pairing as its adapter drives it, minus the back end: every input goes
/// to the procedure with the scheduler's time, the actions are recorded,
/// and one timer is armed for `nextDeadline` on a `ManualScheduler`, so a
/// timeout is reached by moving the clock.
final class PairingRun {
    static let device = Build.device(0xC0FFEE)
    static let accessory = AccessoryID(0xA11)

    let scheduler = ManualScheduler(ManualClock(MonotonicInstant(nanoseconds: 1_000_000_000_000)))
    private(set) var procedure: PairingProcedure
    /// Every action, in order, since the run began.
    private(set) var actions: [PairingProcedure.Action] = []
    private var timer: TimerToken?

    init(policy: PairingPolicy = .any, approver: PairingApprover = .agent(":1.42"), request: UInt32 = 7) {
        procedure = PairingProcedure(
            subject: .init(request: request, session: 3, accessory: Self.accessory, device: Self.device, approver: approver),
            configuration: .init(policy: policy))
    }

    var now: MonotonicInstant { scheduler.now }
    var phase: PairingProcedure.Phase { procedure.phase }
    var question: PairingQuestion? { procedure.question }

    /// Feeds one input; returns the actions it caused.
    @discardableResult
    func feed(_ input: (inout PairingProcedure, MonotonicInstant) -> [PairingProcedure.Action]) -> [PairingProcedure.Action] {
        let caused = input(&procedure, now)
        record(caused)
        return caused
    }

    @discardableResult
    func answer(_ answer: PairingAnswer, to id: PairingQuestion.ID? = nil, from answerer: PairingApprover = .agent(":1.42"))
        throws(PairingAnswerError) -> [PairingProcedure.Action]
    {
        let target = id ?? procedure.question?.id ?? PairingQuestion.ID(request: 0, prompt: 0)
        let caused = try procedure.answer(answer, to: target, from: answerer, at: now)
        record(caused)
        return caused
    }

    /// Starts, connects, and lets the back end prompt: the usual way to a question.
    @discardableResult
    func prompt(_ prompt: PairingPrompt) -> [PairingProcedure.Action] {
        feed { $0.start(at: $1) }
        feed { $0.connected(at: $1) }
        return feed { $0.prompted(prompt, at: $1) }
    }

    /// Moves the clock; the armed timer calls `deadlineReached` if it falls due.
    @discardableResult
    func advance(by duration: Duration) -> [PairingProcedure.Action] {
        let before = actions.count
        scheduler.advance(by: duration)
        return Array(actions[before...])
    }

    private func record(_ caused: [PairingProcedure.Action]) {
        actions += caused
        rearm()
    }

    private func rearm() {
        if let timer { scheduler.cancel(timer) }
        timer = nil
        guard let deadline = procedure.nextDeadline else { return }
        timer = scheduler.at(deadline) { [unowned self] in
            timer = nil
            record(procedure.deadlineReached(at: now))
        }
    }

    /// Armed timers: one while the procedure runs, none once it is over.
    var armedTimers: Int { scheduler.pending }
}
