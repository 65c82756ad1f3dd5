import Testing
@testable import AccessoryCore

/// Answers that must change nothing (duplicates, late ones, another
/// request's, another agent's, the wrong kind) and the validation of
/// what a person types.
@Suite struct PairingAnswerTests {
    @Test func aDuplicateAnswerIsRefused() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        #expect(try run.answer(.confirm, to: question.id) == [.reply(.confirm)])
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.confirm, to: question.id) }
        #expect(throws: PairingAnswerError.noSuchQuestion(question.id)) { try run.answer(.reject, to: question.id) }
        #expect(run.actions.filter { $0 == .reply(.confirm) }.count == 1)
        #expect(run.phase == .pairing)
    }

    @Test func anAnswerForAnotherRequestIsRefused() throws {
        let run = PairingRun(request: 7)
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        let elsewhere = PairingQuestion.ID(request: 8, prompt: question.id.prompt)
        #expect(throws: PairingAnswerError.noSuchQuestion(elsewhere)) { try run.answer(.reject, to: elsewhere) }
        #expect(run.question == question)
        #expect(try run.answer(.confirm, to: question.id) == [.reply(.confirm)])
    }

    /// The back end moved on to another prompt: an answer to the one it replaced is stale.
    @Test func anAnswerToAReplacedPromptIsRefused() throws {
        let run = PairingRun()
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let first = try #require(run.question)
        run.feed { $0.prompted(.passkeyEntry, at: $1) }
        #expect(throws: PairingAnswerError.noSuchQuestion(first.id)) { try run.answer(.confirm, to: first.id) }
        #expect(run.question?.id.prompt == 2)
    }

    @Test func anAnswerBeforeAnyQuestionIsRefused() {
        let run = PairingRun()
        run.feed { $0.start(at: $1) }
        let id = PairingQuestion.ID(request: 7, prompt: 1)
        #expect(throws: PairingAnswerError.noSuchQuestion(id)) { try run.answer(.confirm, to: id) }
        #expect(run.phase == .connecting)
    }

    /// Another agent (or a former one) may not answer; an administrator may.
    @Test func onlyTheApproverOrAnAdministratorAnswers() throws {
        let run = PairingRun(approver: .agent(":1.42"))
        run.prompt(.numericComparison(PairingPasskey(123_456)!))
        let question = try #require(run.question)
        #expect(throws: PairingAnswerError.notTheApprover(question.id)) { try run.answer(.reject, from: .agent(":1.99")) }
        #expect(throws: PairingAnswerError.notTheApprover(question.id)) { try run.answer(.reject, from: .policy) }
        #expect(run.phase == .pairing)
        #expect(try run.answer(.confirm, from: .administrator) == [.reply(.confirm)])

        let byAdministrator = PairingRun(approver: .administrator)
        byAdministrator.prompt(.numericComparison(PairingPasskey(123_456)!))
        #expect(throws: PairingAnswerError.notTheApprover(try #require(byAdministrator.question).id)) {
            try byAdministrator.answer(.confirm, from: .agent(":1.42"))
        }
        #expect(try byAdministrator.answer(.confirm, from: .administrator) == [.reply(.confirm)])
    }

    /// Every prompt against every kind of answer: what is replied, or why it is refused.
    @Test(arguments: [
        PairingPrompt.numericComparison(PairingPasskey(1)!), .passkeyDisplay(PairingPasskey(2)!), .passkeyEntry,
    ])
    func eachPromptAgainstEachAnswer(_ prompt: PairingPrompt) throws {
        let passkey = try #require(PairingPasskey(text: "314159"))
        for answer in [PairingAnswer.confirm, .passkey(passkey)] {
            let run = PairingRun()
            run.prompt(prompt)
            let id = try #require(run.question).id
            switch (prompt, answer) {
            case (.justWorks, .confirm), (.numericComparison, .confirm):
                #expect(try run.answer(answer) == [.reply(.confirm)])
            case (.passkeyDisplay, .confirm):
                #expect(try run.answer(answer) == [])
            case (.passkeyEntry, .passkey):
                #expect(try run.answer(answer) == [.reply(.passkey(passkey))])
            case (.passkeyEntry, .confirm):
                #expect(throws: PairingAnswerError.expectedPasskey(id)) { try run.answer(answer) }
                #expect(run.question?.id == id)
            default:
                #expect(throws: PairingAnswerError.expectedConfirmation(id, prompt: prompt.name)) { try run.answer(answer) }
                #expect(run.question?.id == id)
            }
        }
    }

    @Test func passkeysAreSixDigits() throws {
        #expect(PairingPasskey(text: "000000")?.value == 0)
        #expect(PairingPasskey(text: "999999")?.value == 999_999)
        #expect(PairingPasskey(text: "012345")?.digits == "012345")
        #expect(PairingPasskey(999_999)?.digits == "999999")
        #expect(PairingPasskey(7)?.digits == "000007")
        #expect(PairingPasskey(1_000_000) == nil)
        #expect(PairingPasskey(.max) == nil)
        for bad in ["", "12345", "1234567", "12a456", " 12345", "12345 ", "-12345", "+12345", "１２３４５６", "٣٣٣٣٣٣", "12\u{0}456"] {
            #expect(PairingPasskey(text: bad) == nil, "\(bad.debugDescription)")
        }
        // A passkey interpolated into a log line shows no digits.
        #expect("\(try #require(PairingPasskey(text: "271828")))" == "(six digits)")
    }

    @Test func answersAsTyped() throws {
        #expect(PairingAnswer(text: "yes") == .confirm)
        #expect(PairingAnswer(text: "Confirm") == .confirm)
        #expect(PairingAnswer(text: "no") == .reject)
        #expect(PairingAnswer(text: "REJECT") == .reject)
        #expect(PairingAnswer(text: "004217") == .passkey(try #require(PairingPasskey(4217))))
        for bad in ["", "y", "ok", "4217", "yes please"] { #expect(PairingAnswer(text: bad) == nil, "\(bad)") }
        // What the caller is told never repeats what it typed.
        #expect(!PairingAnswerError.invalidAnswer.description.contains("4217"))
    }
}
