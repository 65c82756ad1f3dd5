import Testing
@testable import AccessoryCore

/// Setup pairing that succeeds, with each prompt the back ends send: the
/// app hears PickerSetupPairing first, the approver gets each question, the
/// back end each reply, and `.completed` (the grant stored, AccessoryAdded,
/// PickerDidDismiss) comes last and only after the back end said it bonded.
@Suite struct PairingProcedureTests {
    let device = PairingRun.device

    @Test func justWorksIsConfirmedWithoutAskingTheApproverAgain() throws {
        // Nothing to compare or type: approving the accessory was the consent.
        let run = PairingRun()
        #expect(run.feed { $0.start(at: $1) } == [.connect(device)])
        #expect(run.phase == .connecting)
        #expect(run.feed { $0.connected(at: $1) } == [
            .announcePairing(session: 3, accessory: PairingRun.accessory), .pair(device, .keyboardDisplay),
        ])
        #expect(run.feed { $0.prompted(.justWorks, at: $1) } == [.reply(.confirm)])
        #expect(run.question == nil)
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
        #expect(run.phase == .completed)
        #expect(run.armedTimers == 0)
    }

    @Test func numericComparisonShowsTheNumberAndConfirms() throws {
        let run = PairingRun()
        let number = try #require(PairingPasskey(12_345))
        let asked = run.prompt(.numericComparison(number))
        #expect(asked.count == 1)
        guard case .ask(let question, _) = asked.first else { Issue.record("no question: \(asked)"); return }
        #expect(question.prompt == .numericComparison(number))
        #expect(question.deadline == run.now.advanced(by: .seconds(25)))
        #expect(number.digits == "012345")
        #expect(try run.answer(.confirm) == [.reply(.confirm)])
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
    }

    /// The accessory types the passkey: nothing to reply, no answer deadline;
    /// the question stays on screen until the back end ends the pairing.
    @Test func passkeyDisplayWaitsForTheAccessoryNotTheApprover() throws {
        let run = PairingRun()
        let passkey = try #require(PairingPasskey(text: "987654"))
        let asked = run.prompt(.passkeyDisplay(passkey))
        let question = PairingQuestion(id: .init(request: 7, prompt: 1), prompt: .passkeyDisplay(passkey), deadline: nil)
        #expect(asked == [.ask(question, .agent(":1.42"))])
        #expect(run.procedure.nextDeadline == run.now.advanced(by: .seconds(90)))
        #expect(run.advance(by: .seconds(60)) == [])
        #expect(run.feed { $0.paired(at: $1) } == [.withdraw(question.id), .completed])
    }

    @Test func passkeyDisplaySeenIsNoReply() throws {
        let run = PairingRun()
        run.prompt(.passkeyDisplay(try #require(PairingPasskey(0))))
        #expect(try run.answer(.confirm) == [])
        #expect(run.question == nil)
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
    }

    @Test func passkeyEntryRepliesWithTheDigits() throws {
        let run = PairingRun()
        let asked = run.prompt(.passkeyEntry)
        guard case .ask(let question, _) = asked.first else { Issue.record("no question: \(asked)"); return }
        #expect(question.prompt == .passkeyEntry)
        let passkey = try #require(PairingPasskey(text: "000042"))
        #expect(try run.answer(.passkey(passkey)) == [.reply(.passkey(passkey))])
        #expect(run.procedure.method == .passkeyEntry)
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
    }

    /// Just Works started by the gateway asks nothing: the back end just bonds.
    @Test func justWorksWithoutAPromptCompletes() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        run.feed { $0.connected(at: $1) }
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
        #expect(run.procedure.method == nil)
    }

    /// Each prompt gets a number of its own; a new one takes the last off the screen.
    @Test func aNewPromptReplacesTheOpenQuestion() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let first = try #require(run.question)
        let asked = run.feed { $0.prompted(.passkeyEntry, at: $1) }
        let second = try #require(run.question)
        #expect(second.id == PairingQuestion.ID(request: 7, prompt: 2))
        #expect(asked == [.withdraw(first.id), .ask(second, .agent(":1.42"))])
    }

    @Test func theBackEndTakingItsPromptBackWithdrawsTheQuestion() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        #expect(run.feed { $0.promptCancelled(at: $1) } == [.withdraw(question.id)])
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.confirm, to: question.id) }
        // The back end's end follows; nothing is owed to it any more.
        #expect(run.feed { $0.pairingFailed(.rejectedByAccessory, at: $1) } == [.abandon(device), .failed(.rejectedByAccessory)])
    }

    /// PickerSetupPairing goes out before the pairing starts and the
    /// completion (so AccessoryAdded) after every reply, exactly once.
    @Test func theOrderTheSessionSees() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(try #require(PairingPasskey(1))))
        try run.answer(.confirm)
        run.feed { $0.paired(at: $1) }
        run.feed { $0.paired(at: $1) }
        let announce = try #require(run.actions.firstIndex(of: .announcePairing(session: 3, accessory: PairingRun.accessory)))
        let pair = try #require(run.actions.firstIndex(of: .pair(device, .keyboardDisplay)))
        let reply = try #require(run.actions.firstIndex(of: .reply(.confirm)))
        #expect(announce < pair && pair < reply)
        #expect(run.actions.last == .completed)
        #expect(run.actions.filter { $0 == .completed }.count == 1)
    }

    /// After the end, the back end's stragglers change nothing; a prompt is
    /// refused so it does not wait for a reply that never comes.
    @Test func eventsAfterTheEndAreIgnored() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        run.feed { $0.connected(at: $1) }
        run.feed { $0.paired(at: $1) }
        #expect(run.feed { $0.paired(at: $1) } == [])
        #expect(run.feed { $0.disconnected(at: $1) } == [])
        #expect(run.feed { $0.pairingFailed(.timedOut, at: $1) } == [])
        #expect(run.feed { $0.prompted(.justWorks, at: $1) } == [.reply(.reject)])
        #expect(run.feed { $0.prompted(.passkeyDisplay(PairingPasskey(5)!), at: $1) } == [])
        #expect(run.feed { $0.cancel(at: $1) } == [])
        #expect(run.advance(by: .seconds(3600)) == [])
        #expect(run.phase == .completed)
    }

    @Test func inputsBeforeTheirTimeAreIgnored() {
        let run = PairingRun()
        #expect(run.feed { $0.connected(at: $1) } == [])
        #expect(run.feed { $0.paired(at: $1) } == [])
        #expect(run.feed { $0.prompted(.justWorks, at: $1) } == [.reply(.reject)])
        #expect(run.phase == .idle)
        run.feed { $0.start(at: $1) }
        #expect(run.feed { $0.start(at: $1) } == [])
        #expect(run.feed { $0.paired(at: $1) } == [])
        #expect(run.phase == .connecting)
    }

    /// The app withdrew its request, or its session ended: the pairing is
    /// abandoned; the authorization core tells the app, so no PickerSetupFailed here.
    @Test func cancellingAbandonsWithoutAFailureNotice() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        #expect(run.feed { $0.cancel(at: $1) } == [.reply(.reject), .withdraw(question.id), .abandon(device)])
        #expect(run.phase == .cancelled)
        #expect(run.armedTimers == 0)

        let idle = PairingRun()
        #expect(idle.feed { $0.cancel(at: $1) } == [])
        #expect(idle.phase == .cancelled)
        #expect(idle.feed { $0.start(at: $1) } == [])
    }
}
