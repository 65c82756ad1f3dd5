import Testing
@testable import AccessoryCore

/// One picker agent at a time decides; while it is registered the approval
/// windows stay out of its way.
@Suite struct PickerAgentTests {
    typealias World = AuthorizationWorld

    static func register(_ w: inout World, _ name: String) throws(AccessorySetupError) {
        try w.decide { c throws(AccessorySetupError) in try c.registerAgent(name: name, path: "/agent") }
    }

    @Test func anAgentRegisteredLateHearsOfEveryOpenRequestAndCandidate() throws {
        var w = World()
        try w.show()
        w.hear(12)
        w.clearNotices()
        try Self.register(&w, ":1.7")
        #expect(w.core.agent == PickerAgent(name: ":1.7", path: "/agent"))
        #expect(w.notices == ["agent requestAdded 1 acme", "agent candidateAdded 1 1 Acme 12"])
        #expect(w.log.last?.event == .agentRegistered)
    }

    @Test func aSecondAgentIsPickerAlreadyActiveAndTheFirstMayRegisterAgain() throws {
        var w = World()
        try Self.register(&w, ":1.7")
        do {
            try Self.register(&w, ":1.8")
            Issue.record("a second agent was taken")
        } catch {
            #expect(error.code == .pickerAlreadyActive)
        }
        #expect(w.core.agent?.name == ":1.7")
        try Self.register(&w, ":1.7")
    }

    @Test func onlyTheAgentItselfUnregistersIt() throws {
        var w = World()
        try Self.register(&w, ":1.7")
        var core = w.core
        let stranger = core.unregisterAgent(name: ":1.8", reason: "unregistered")
        #expect(stranger == nil)
        #expect(core.agent != nil)
        let itself = core.unregisterAgent(name: ":1.7", reason: "left the bus")
        let decision = try #require(itself)
        #expect(decision.log.map(\.message) == ["Picker agent :1.7 left the bus"])
        #expect(core.agent == nil)
    }

    @Test func whileAnAgentIsRegisteredTheWindowDoesNotDecide() throws {
        var w = World()
        try Self.register(&w, ":1.7")
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        try w.show()
        w.hear(12)
        #expect(w.core.grants.isEmpty)
        // The agent's answer is its own.
        try w.approve(1, by: "agent :1.7")
        #expect(w.log.contains { $0.event == .accessoryApproved && $0.metadata["decided_by"] == "agent :1.7" })
    }

    @Test func whenTheAgentGoesAnOpenWindowAnswersWhatItLeft() throws {
        var w = World()
        try Self.register(&w, ":1.7")
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        try w.show()
        w.hear(12)
        w.apply { c, _, _ in c.unregisterAgent(name: ":1.7", reason: "left the bus") ?? AuthorizationDecision() }
        #expect(w.core.grants.all.count == 1 && w.core.requests.isEmpty)
    }
}
