import Testing
@testable import AccessoryCore

/// The administrator's `Pairing=` and the approval window, applied by the procedure.
@Suite struct PairingPolicyTests {
    let device = PairingRun.device

    @Test func refuseEndsSetupBeforeAnythingStarts() {
        let run = PairingRun(policy: .refuse)
        #expect(run.feed { $0.start(at: $1) } == [.failed(.refusedByPolicy(.pairingRefused))])
        #expect(run.phase == .failed(.refusedByPolicy(.pairingRefused)))
        #expect(run.armedTimers == 0)
        #expect(run.feed { $0.connected(at: $1) } == [])
    }

    /// Just Works only: the gateway offers no input or output, so a
    /// compliant accessory cannot choose more; one that asks anyway is refused.
    @Test func justWorksOnlyOffersNoInputNoOutputAndAllowsJustWorks() throws {
        let run = PairingRun(policy: .justWorksOnly)
        run.feed { $0.start(at: $1) }
        #expect(run.feed { $0.connected(at: $1) }.last == .pair(device, .noInputNoOutput))
        #expect(run.feed { $0.prompted(.justWorks, at: $1) } == [.reply(.confirm)])
        #expect(run.feed { $0.paired(at: $1) } == [.completed])
    }

    @Test(arguments: [
        PairingPrompt.numericComparison(PairingPasskey(123_456)!), .passkeyEntry, .passkeyDisplay(PairingPasskey(654_321)!),
    ])
    func justWorksOnlyRefusesNumbers(_ prompt: PairingPrompt) {
        let run = PairingRun(policy: .justWorksOnly)
        let refused = PairingFailure.refusedByPolicy(.justWorksOnly(prompt.method))
        let expected: [PairingProcedure.Action] = (prompt.needsReply ? [.reply(.reject)] : []) + [.abandon(device), .failed(refused)]
        #expect(run.prompt(prompt) == expected)
        #expect(run.question == nil)
        #expect(!run.actions.contains { if case .ask = $0 { true } else { false } })
    }

    @Test(arguments: [
        PairingPrompt.justWorks, .numericComparison(PairingPasskey(1)!), .passkeyEntry, .passkeyDisplay(PairingPasskey(2)!),
    ])
    func anyAllowsEveryMethod(_ prompt: PairingPrompt) {
        #expect(PairingPolicy.any.allows(prompt))
        #expect(PairingPolicy.justWorksOnly.allows(prompt) == (prompt == .justWorks))
        #expect(!PairingPolicy.refuse.allows(prompt))
        let run = PairingRun(policy: .any)
        // Just Works is confirmed without a question (the approval was the consent); the rest are asked.
        if prompt == .justWorks {
            #expect(run.prompt(prompt) == [.reply(.confirm)])
            return
        }
        guard case .ask(let question, _) = run.prompt(prompt).first else { Issue.record("not asked"); return }
        #expect(question.prompt == prompt)
    }

    /// Approved by an approval window: Just Works is consented to already;
    /// a number needs a person, and there is none.
    @Test func anApprovalWindowConsentsToJustWorksOnly() {
        let run = PairingRun(approver: .policy)
        run.feed { $0.start(at: $1) }
        #expect(run.feed { $0.connected(at: $1) }.last == .pair(device, .noInputNoOutput))
        #expect(run.feed { $0.prompted(.justWorks, at: $1) } == [.reply(.confirm)])
        #expect(run.question == nil)
        #expect(run.feed { $0.paired(at: $1) } == [.completed])

        let numbers = PairingRun(approver: .policy)
        #expect(numbers.prompt(.passkeyEntry) == [
            .reply(.reject), .abandon(device), .failed(.refusedByPolicy(.nobodyToAsk(.passkeyEntry))),
        ])
    }

    @Test func theConfigurationValues() {
        #expect(PairingPolicy(configurationValue: "any") == .any)
        #expect(PairingPolicy(configurationValue: "Just-Works-Only") == .justWorksOnly)
        #expect(PairingPolicy(configurationValue: "refuse") == .refuse)
        for bad in ["", "yes", "no", "just works only", "justworksonly", "any "] {
            #expect(PairingPolicy(configurationValue: bad) == nil, "\(bad)")
        }
        #expect(PairingProcedure.Configuration().policy == .any)
    }
}
