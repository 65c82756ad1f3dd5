import Testing
import TestSupport
@testable import AccessoryCore

/// Random orders of every input (seeded, so a failure replays): whatever the
/// back end, the approver and the clock do, a pairing ends at most once, in
/// `.completed` only after the back end bonded and never after a failure,
/// never replies to the back end after abandoning it, and is over when its
/// deadline has passed.
@Suite struct PairingInvariantTests {
    static let prompts: [PairingPrompt] = [
        .justWorks, .numericComparison(PairingPasskey(123_456)!), .passkeyDisplay(PairingPasskey(42)!), .passkeyEntry,
    ]
    static let errors: [PairingBackEndError] = [.rejectedByAccessory, .authenticationFailed, .timedOut, .notFound, .disconnected, .other("x")]
    static let answerers: [PairingApprover] = [.agent(":1.42"), .agent(":1.99"), .administrator, .policy]
    static let answers: [PairingAnswer] = [.confirm, .reject, .passkey(PairingPasskey(999_999)!)]

    @Test(arguments: [PairingPolicy.any, .justWorksOnly, .refuse], [PairingApprover.agent(":1.42"), .administrator, .policy])
    func randomWalksKeepTheRules(policy: PairingPolicy, approver: PairingApprover) {
        var rng = SplitMix64(seed: 26)
        for _ in 0..<300 {
            let run = PairingRun(policy: policy, approver: approver)
            var bonded = false
            for _ in 0..<Int.random(in: 1...14, using: &rng) {
                let wasOver = run.phase.isOver
                let before = run.actions.count
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: run.feed { $0.start(at: $1) }
                case 1: run.feed { $0.connected(at: $1) }
                case 2: run.feed { $0.connectFailed(Self.errors.randomElement(using: &rng)!, at: $1) }
                case 3: run.feed { $0.prompted(Self.prompts.randomElement(using: &rng)!, at: $1) }
                case 4:
                    let id = Bool.random(using: &rng) ? run.question?.id : PairingQuestion.ID(request: 7, prompt: UInt32.random(in: 0...3, using: &rng))
                    _ = try? run.answer(Self.answers.randomElement(using: &rng)!, to: id, from: Self.answerers.randomElement(using: &rng)!)
                case 5:
                    if run.phase == .pairing { bonded = true }
                    run.feed { $0.paired(at: $1) }
                case 6: run.feed { $0.pairingFailed(Self.errors.randomElement(using: &rng)!, at: $1) }
                case 7: run.feed { $0.disconnected(at: $1) }
                case 8: run.feed { $0.promptCancelled(at: $1) }
                default: run.advance(by: .seconds(Int64.random(in: 1...40, using: &rng)))
                }
                let caused = run.actions[before...]
                if wasOver {
                    // After the end only a stray prompt is answered, and only with no.
                    #expect(caused.allSatisfy { $0 == .reply(.reject) }, "\(Array(caused))")
                }
                if let abandon = caused.firstIndex(of: .abandon(PairingRun.device)) {
                    #expect(!caused[abandon...].contains { if case .reply = $0 { true } else { false } })
                }
            }
            let ends = run.actions.filter { if case .failed = $0 { true } else { $0 == .completed } }
            #expect(ends.count <= 1)
            if run.actions.contains(.completed) {
                #expect(bonded)
                #expect(run.phase == .completed)
                #expect(!run.actions.contains(.abandon(PairingRun.device)))
                #expect(run.actions.contains(.announcePairing(session: 3, accessory: PairingRun.accessory)))
            }
            if policy == .refuse { #expect(!run.actions.contains { if case .connect = $0 { true } else { false } }) }
            if policy == .justWorksOnly || approver == .policy {
                #expect(!run.actions.contains { if case .reply(.passkey) = $0 { true } else { false } })
            }
            // Ninety seconds after the start, whatever happened, it is over and no timer is left.
            run.advance(by: .seconds(91))
            if run.actions.contains(where: { if case .connect = $0 { true } else { false } }) { #expect(run.phase.isOver) }
            #expect(run.phase == .idle || run.armedTimers == 0)
        }
    }
}
