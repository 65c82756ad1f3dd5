import Testing
@testable import AccessoryCore

/// Every way a setup's pairing fails: each ends in `.abandon` (cancel,
/// delete any key, disconnect) and one `.failed` with its named reason,
/// never in `.completed`, and the back end is never left waiting for a reply.
@Suite struct PairingFailureTests {
    let device = PairingRun.device

    @Test func rejectedByThePerson() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(try #require(PairingPasskey(424_242))))
        let question = try #require(run.question)
        #expect(try run.answer(.reject) == [.reply(.reject), .abandon(device), .failed(.rejectedByPerson)])
        #expect(run.phase == .failed(.rejectedByPerson))
        // The back end's own failure that follows changes nothing.
        #expect(run.feed { $0.pairingFailed(.authenticationFailed, at: $1) } == [])
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.confirm, to: question.id) }
    }

    @Test func rejectingAPasskeyDisplayStopsThePairing() throws {
        let run = PairingRun()
        run.prompt(.passkeyDisplay(try #require(PairingPasskey(1))))
        // Nothing is owed to the back end for a display, so no reply; the abandon cancels it.
        #expect(try run.answer(.reject) == [.abandon(device), .failed(.rejectedByPerson)])
    }

    @Test func rejectedByTheAccessory() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        run.feed { $0.connected(at: $1) }
        #expect(run.feed { $0.pairingFailed(.rejectedByAccessory, at: $1) } == [.abandon(device), .failed(.rejectedByAccessory)])
    }

    @Test func aWrongPasskeyIsNamedSo() throws {
        let run = PairingRun()
        run.prompt(.passkeyEntry)
        try run.answer(.passkey(try #require(PairingPasskey(text: "111111"))))
        #expect(run.feed { $0.pairingFailed(.authenticationFailed, at: $1) } == [.abandon(device), .failed(.wrongPasskey)])

        let shown = PairingRun()
        shown.prompt(.passkeyDisplay(try #require(PairingPasskey(2))))
        #expect(shown.feed { $0.pairingFailed(.authenticationFailed, at: $1) }.last == .failed(.wrongPasskey))
    }

    @Test func authenticationFailedWithoutAPasskey() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(try #require(PairingPasskey(3))))
        try run.answer(.confirm)
        #expect(run.feed { $0.pairingFailed(.authenticationFailed, at: $1) } == [.abandon(device), .failed(.authenticationFailed)])
    }

    /// An unanswered question: at its deadline, and not a moment before, the
    /// back end hears no, the approver's screen is cleared, the app hears why.
    @Test func aPromptUnansweredTimesOut() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        #expect(run.procedure.nextDeadline == question.deadline)
        #expect(run.advance(by: .milliseconds(24_999)) == [])
        #expect(run.advance(by: .milliseconds(1)) == [
            .reply(.reject), .withdraw(question.id), .abandon(device), .failed(.timedOut(.answer)),
        ])
        #expect(run.armedTimers == 0)
        // A late answer finds nothing and changes nothing.
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.confirm, to: question.id) }
        #expect(run.phase == .failed(.timedOut(.answer)))
    }

    /// The answer arrives on the loop turn the deadline fell due, before the timer ran.
    @Test func anAnswerAtTheDeadlineIsLate() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        // The clock reaches the deadline; the timer has not run yet.
        run.scheduler.clock.advance(to: try #require(question.deadline))
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.confirm, to: question.id) }
        #expect(run.phase == .pairing)
        run.scheduler.runDue()
        #expect(run.actions.last == .failed(.timedOut(.answer)))
        #expect(!run.actions.contains(.reply(.confirm)))
    }

    @Test func theWholePairingTimesOut() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        // Connecting never ends.
        #expect(run.advance(by: .milliseconds(89_999)) == [])
        #expect(run.advance(by: .milliseconds(1)) == [.abandon(device), .failed(.timedOut(.pairing))])
    }

    /// Each answer is in time, but the pairing as a whole is not.
    @Test func answersInTimeDoNotExtendThePairing() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        run.advance(by: .seconds(20))
        try run.answer(.confirm)
        run.feed { $0.prompted(.passkeyEntry, at: $1) }
        run.advance(by: .seconds(20))
        try run.answer(.passkey(try #require(PairingPasskey(7))))
        run.feed { $0.prompted(.passkeyDisplay(PairingPasskey(8)!), at: $1) }
        let question = try #require(run.question)
        #expect(run.advance(by: .seconds(49)) == [])
        #expect(run.advance(by: .seconds(1)) == [.withdraw(question.id), .abandon(device), .failed(.timedOut(.pairing))])
    }

    @Test func theAccessoryStoppingAnsweringIsATimeout() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        run.feed { $0.connected(at: $1) }
        #expect(run.feed { $0.pairingFailed(.timedOut, at: $1) } == [.abandon(device), .failed(.timedOut(.pairing))])
    }

    @Test(arguments: [PairingBackEndError.notFound, .disconnected, .timedOut, .rejectedByAccessory])
    func connectingFails(_ error: PairingBackEndError) {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        let expected: PairingFailure =
            switch error {
            case .timedOut: .timedOut(.pairing)
            case .rejectedByAccessory: .rejectedByAccessory
            default: .accessoryGone
            }
        #expect(run.feed { $0.connectFailed(error, at: $1) } == [.abandon(device), .failed(expected)])
        #expect(run.feed { $0.connected(at: $1) } == [])
    }

    /// Disconnected mid-pairing, with a question on the approver's screen.
    @Test func theAccessoryGoneMidPairing() throws {
        let run = PairingRun()
        run.prompt(.passkeyEntry)
        let question = try #require(run.question)
        #expect(run.feed { $0.disconnected(at: $1) } == [.withdraw(question.id), .abandon(device), .failed(.accessoryGone)])
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) {
            try run.answer(.passkey(PairingPasskey(1)!), to: question.id)
        }
    }

    @Test func theBackEndFailingOtherwiseIsNamed() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        run.feed { $0.connected(at: $1) }
        let actions = run.feed { $0.pairingFailed(.other("org.bluez.Error.Failed\u{1B}[2J"), at: $1) }
        #expect(actions == [.abandon(device), .failed(.backEndFailed("\"org.bluez.Error.Failed\\x1B[2J\""))])
    }

    /// What PickerSetupFailed carries for each reason: the ASError code and
    /// a message that names the reason, without control characters.
    @Test(arguments: [
        (PairingFailure.rejectedByPerson, AccessorySetupError.Code.userCancelled),
        (.timedOut(.answer), .userCancelled),
        (.refusedByPolicy(.pairingRefused), .userRestricted),
        (.refusedByPolicy(.justWorksOnly(.passkeyEntry)), .userRestricted),
        (.refusedByPolicy(.nobodyToAsk(.numericComparison)), .userRestricted),
        (.rejectedByAccessory, .connectionFailed),
        (.wrongPasskey, .connectionFailed),
        (.authenticationFailed, .connectionFailed),
        (.timedOut(.pairing), .connectionFailed),
        (.accessoryGone, .connectionFailed),
        (.backEndFailed("\"org.bluez.Error.Failed\""), .connectionFailed),
    ])
    func theFailureAsTheAppSeesIt(_ failure: PairingFailure, _ code: AccessorySetupError.Code) {
        let error = failure.setupError(accessoryName: "Acme\u{7}Lock")
        #expect(error.code == code)
        guard case .message(let text) = error.reason else { Issue.record("no message"); return }
        #expect(text.hasPrefix("pairing Acme\\x07Lock failed (\(failure.name)): "))
        #expect(!DisplayText.hasControlCharacters(text))
    }
}
