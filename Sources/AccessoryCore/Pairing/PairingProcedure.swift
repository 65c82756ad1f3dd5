/// The pairing of one approved accessory during setup, as decisions only:
/// the back end's events, the approver's answers and the current instant in,
/// `Action` values out. The adapter (BlueZ's Agent1 and Device1.Pair beside
/// bluetoothd, the kernel's mgmt socket without it) carries them out and
/// arms one timer for `nextDeadline`; no socket, no timer, no clock here.
///
/// The path: `start` → `.connect` → `connected` → `.announcePairing`
/// (PickerSetupPairing) and `.pair` → any number of `prompted` → `.ask` the
/// approver (a number or a passkey; Just Works is confirmed at once, the
/// approval having been the consent) → their `answer` → `.reply` to the
/// back end → `paired` →
/// `.completed`: only then does the adapter store the grant and send
/// AccessoryAdded and PickerDidDismiss. Every other end is `.abandon` (the
/// adapter cancels the pairing, removes any key it produced, disconnects)
/// and `.failed` with a named reason: nothing granted, nothing stored.
///
/// Two deadlines: one per question the back end waits on (`answerTimeout`,
/// under the 30 s SMP timer of the Core Specification, Vol 3 Part H §3.4,
/// so the person's silence is reported as such, not as the accessory's),
/// and one for the whole pairing from `start` (`pairingTimeout`).
public struct PairingProcedure: Sendable {
    public struct Configuration: Hashable, Sendable {
        public var policy: PairingPolicy
        public var answerTimeout: Duration
        public var pairingTimeout: Duration

        public init(policy: PairingPolicy = .any, answerTimeout: Duration = .seconds(25), pairingTimeout: Duration = .seconds(90)) {
            self.policy = policy
            self.answerTimeout = answerTimeout
            self.pairingTimeout = pairingTimeout
        }
    }

    /// What is being paired, for whom, and who answers.
    public struct Subject: Hashable, Sendable {
        /// The setup request that was approved.
        public var request: UInt32
        /// The session that showed the picker: it hears PickerSetupPairing and the end.
        public var session: UInt64
        /// The id the grant will have: reserved at approval, published (the
        /// object, AccessoryAdded) only on completion.
        public var accessory: AccessoryID
        public var device: BluetoothDeviceIdentifier
        public var approver: PairingApprover

        public init(request: UInt32, session: UInt64, accessory: AccessoryID, device: BluetoothDeviceIdentifier, approver: PairingApprover) {
            self.request = request
            self.session = session
            self.accessory = accessory
            self.device = device
            self.approver = approver
        }
    }

    public enum Phase: Hashable, Sendable {
        case idle
        case connecting
        case pairing
        case completed
        case failed(PairingFailure)
        /// The request was withdrawn or its session ended; the authorization core tells the app.
        case cancelled

        public var isOver: Bool {
            switch self {
            case .idle, .connecting, .pairing: false
            case .completed, .failed, .cancelled: true
            }
        }
    }

    public enum Action: Hashable, Sendable {
        /// Connect to the accessory; answer with `connected` or `connectFailed`.
        case connect(BluetoothDeviceIdentifier)
        /// PickerSetupPairing(accessory) to the session.
        case announcePairing(session: UInt64, accessory: AccessoryID)
        /// Start pairing with this capability; the back end's prompts come as
        /// `prompted`, its end as `paired` or `pairingFailed`.
        case pair(BluetoothDeviceIdentifier, PairingIOCapability)
        /// Put the question to the approver (PickerAgent1, or accessoryctl's list).
        case ask(PairingQuestion, PairingApprover)
        /// The question is no longer open: take it off the approver's screen.
        case withdraw(PairingQuestion.ID)
        /// Answer the back end's pending prompt.
        case reply(PairingReply)
        /// Cancel the pairing if it still runs, delete any key or bond it
        /// produced, disconnect.
        case abandon(BluetoothDeviceIdentifier)
        /// Bonded: store the grant, then InterfacesAdded, AccessoryAdded, PickerDidDismiss.
        case completed
        /// PickerSetupFailed with `failure.setupError`, then PickerDidDismiss; nothing stored.
        case failed(PairingFailure)
    }

    public let configuration: Configuration
    public let subject: Subject
    public private(set) var phase: Phase = .idle
    /// The question the approver may answer now, if any.
    public private(set) var question: PairingQuestion?
    /// The method the latest prompt showed; nil while none came (Just Works
    /// needs none when the gateway starts the pairing).
    public private(set) var method: PairingMethod?
    private var pairingDeadline: MonotonicInstant?
    /// The back end waits for a reply to its latest prompt.
    private var replyOwed = false
    private var prompts: UInt32 = 0

    public init(subject: Subject, configuration: Configuration = Configuration()) {
        self.subject = subject
        self.configuration = configuration
    }

    /// When `deadlineReached` has something to do; nil once over.
    public var nextDeadline: MonotonicInstant? {
        guard !phase.isOver else { return nil }
        return [question?.deadline, pairingDeadline].compactMap { $0 }.min()
    }

    // MARK: Inputs

    /// The accessory was approved for an app whose descriptor asks for pairing.
    public mutating func start(at now: MonotonicInstant) -> [Action] {
        guard phase == .idle else { return [] }
        if configuration.policy == .refuse {
            // Nothing was started, so there is nothing to abandon.
            phase = .failed(.refusedByPolicy(.pairingRefused))
            return [.failed(.refusedByPolicy(.pairingRefused))]
        }
        phase = .connecting
        pairingDeadline = now.advanced(by: configuration.pairingTimeout)
        return [.connect(subject.device)]
    }

    public mutating func connected(at now: MonotonicInstant) -> [Action] {
        guard phase == .connecting else { return [] }
        phase = .pairing
        return [.announcePairing(session: subject.session, accessory: subject.accessory), .pair(subject.device, capability)]
    }

    public mutating func connectFailed(_ error: PairingBackEndError, at now: MonotonicInstant) -> [Action] {
        guard phase == .connecting else { return [] }
        return end(.failed(failure(for: error)))
    }

    /// The back end asks something of the gateway's side.
    public mutating func prompted(_ prompt: PairingPrompt, at now: MonotonicInstant) -> [Action] {
        // Not ours to answer (a stale event, or one after the end): refuse it, so the back end waits for nothing.
        guard phase == .pairing else { return prompt.needsReply ? [.reply(.reject)] : [] }
        var actions: [Action] = []
        // A new prompt replaces the last: the back end has moved on.
        if let open = question {
            actions.append(.withdraw(open.id))
            question = nil
        }
        method = prompt.method
        replyOwed = prompt.needsReply
        if !configuration.policy.allows(prompt) {
            return actions + end(.failed(.refusedByPolicy(.justWorksOnly(prompt.method))))
        }
        if prompt == .justWorks {
            // Just Works shows nothing to compare or type: approving the accessory (a person, an
            // administrator, an approval window) was the consent, and asking again adds nothing.
            replyOwed = false
            return actions + [.reply(.confirm)]
        }
        // An approval window has nobody to compare or enter a number.
        if subject.approver == .policy { return actions + end(.failed(.refusedByPolicy(.nobodyToAsk(prompt.method)))) }
        prompts += 1
        let asked = PairingQuestion(
            id: PairingQuestion.ID(request: subject.request, prompt: prompts), prompt: prompt,
            deadline: prompt.needsReply ? now.advanced(by: configuration.answerTimeout) : nil)
        question = asked
        return actions + [.ask(asked, subject.approver)]
    }

    /// The back end took its prompt back (Agent1.Cancel): its result follows.
    public mutating func promptCancelled(at now: MonotonicInstant) -> [Action] {
        guard phase == .pairing else { return [] }
        replyOwed = false
        guard let open = question else { return [] }
        question = nil
        return [.withdraw(open.id)]
    }

    /// The approver answers `id`. A refused answer changes nothing: the
    /// error says why, for the one who answered.
    public mutating func answer(
        _ answer: PairingAnswer, to id: PairingQuestion.ID, from answerer: PairingApprover, at now: MonotonicInstant
    ) throws(PairingAnswerError) -> [Action] {
        guard phase == .pairing, let open = question, open.id == id else { throw .noSuchQuestion(id) }
        // Past its deadline the question is over, even if the timer has not fired yet on this turn.
        if let deadline = open.deadline, deadline <= now { throw .noSuchQuestion(id) }
        guard subject.approver.accepts(answerer) else { throw .notTheApprover(id) }
        let reply: PairingReply?
        switch (open.prompt, answer) {
        case (_, .reject):
            question = nil
            return end(.failed(.rejectedByPerson))
        case (.justWorks, .confirm), (.numericComparison, .confirm):
            reply = .confirm
        case (.passkeyEntry, .passkey(let passkey)):
            reply = .passkey(passkey)
        case (.passkeyDisplay, .confirm):
            // Seen; the accessory's typing decides, and the back end wants no reply.
            reply = nil
        case (.passkeyEntry, .confirm):
            throw .expectedPasskey(id)
        case (.justWorks, .passkey), (.numericComparison, .passkey), (.passkeyDisplay, .passkey):
            throw .expectedConfirmation(id, prompt: open.prompt.name)
        }
        question = nil
        replyOwed = false
        return reply.map { [.reply($0)] } ?? []
    }

    /// The back end reports the pairing done and the keys kept.
    public mutating func paired(at now: MonotonicInstant) -> [Action] {
        guard phase == .pairing else { return [] }
        var actions: [Action] = []
        if let open = question { actions.append(.withdraw(open.id)) }
        question = nil
        replyOwed = false
        phase = .completed
        return actions + [.completed]
    }

    public mutating func pairingFailed(_ error: PairingBackEndError, at now: MonotonicInstant) -> [Action] {
        guard phase == .pairing else { return [] }
        // The back end's pairing is over: nothing of it waits for a reply.
        replyOwed = false
        return end(.failed(failure(for: error)))
    }

    /// The link to the accessory dropped.
    public mutating func disconnected(at now: MonotonicInstant) -> [Action] {
        guard phase == .connecting || phase == .pairing else { return [] }
        replyOwed = false
        return end(.failed(.accessoryGone))
    }

    /// The request was withdrawn or its session ended before the pairing did.
    public mutating func cancel(at now: MonotonicInstant) -> [Action] {
        guard !phase.isOver else { return [] }
        if phase == .idle {
            phase = .cancelled
            return []
        }
        return end(.cancelled)
    }

    /// The timer for `nextDeadline` fired (or any later instant).
    public mutating func deadlineReached(at now: MonotonicInstant) -> [Action] {
        guard !phase.isOver else { return [] }
        if let deadline = question?.deadline, deadline <= now { return end(.failed(.timedOut(.answer))) }
        if let deadline = pairingDeadline, deadline <= now { return end(.failed(.timedOut(.pairing))) }
        return []
    }

    // MARK: Helpers

    /// The capability offered: only Just Works when the policy or the approver allows no more.
    private var capability: PairingIOCapability {
        configuration.policy == .justWorksOnly || subject.approver == .policy ? .noInputNoOutput : .keyboardDisplay
    }

    /// Ends the procedure in `phase`: refuses a prompt still owed a reply,
    /// takes the question back, abandons what was started, tells why.
    private mutating func end(_ final: Phase) -> [Action] {
        var actions: [Action] = []
        if replyOwed, phase == .pairing { actions.append(.reply(.reject)) }
        if let open = question { actions.append(.withdraw(open.id)) }
        actions.append(.abandon(subject.device))
        if case .failed(let failure) = final { actions.append(.failed(failure)) }
        question = nil
        replyOwed = false
        phase = final
        return actions
    }

    private func failure(for error: PairingBackEndError) -> PairingFailure {
        switch error {
        case .rejectedByAccessory: .rejectedByAccessory
        case .authenticationFailed: method == .passkeyEntry ? .wrongPasskey : .authenticationFailed
        case .timedOut: .timedOut(.pairing)
        case .notFound, .disconnected: .accessoryGone
        case .other: .backEndFailed(error.description)
        }
    }
}
