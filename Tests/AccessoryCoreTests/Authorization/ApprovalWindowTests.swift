import Testing
@testable import AccessoryCore

/// The administrator's policy: while an app's window is open and no agent
/// is registered, the first candidate is approved without asking.
@Suite struct ApprovalWindowTests {
    typealias World = AuthorizationWorld

    @Test func anOpenWindowApprovesTheFirstCandidateAsThePolicy() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        #expect(w.log.last?.event == .approvalWindowOpened)
        try w.show()
        w.hear(12)
        #expect(w.core.requests.isEmpty)
        let grant = try #require(w.core.grants.grants(of: "acme").first)
        #expect(grant.displayName == "Acme 12")
        #expect(w.log.contains { $0.event == .accessoryApproved && $0.metadata["decided_by"] == .string(AuthorizationCore.policyDecider) })
        #expect(w.notices.suffix(3) == ["app acme accessoryAdded \(grant.accessory)", "session 1 pickerDidDismiss -",
                                       "agent requestEnded 1 approved"])
    }

    @Test func openingAWindowApprovesARequestAlreadyWaiting() throws {
        var w = World()
        try w.show()
        w.hear(12)
        #expect(w.core.grants.isEmpty)
        w.apply { c, now, _ in c.allow("acme", for: .seconds(60), decidedBy: "administrator (uid 0)", at: now) }
        #expect(w.core.grants.all.count == 1 && w.core.requests.isEmpty)
    }

    @Test func aWindowForAnotherAppApprovesNothing() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("globex", for: .seconds(60), decidedBy: "administrator (uid 0)", at: now) }
        try w.show()
        w.hear(12)
        #expect(w.core.grants.isEmpty && w.core.requests[1] != nil)
    }

    @Test func aWindowRunsOutAtItsDeadlineAndThenApprovesNothing() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("acme", for: .seconds(60), decidedBy: "administrator (uid 0)", at: now) }
        #expect(w.core.nextDeadline(registry: w.registry) == MonotonicInstant.zero.advanced(by: .seconds(60)))
        w.runToDeadline()
        #expect(w.log.last?.event == .approvalWindowClosed)
        #expect(w.log.last?.message == "Approval window for acme ran out")
        #expect(!w.core.windows.isOpen(for: "acme", at: w.now))
        try w.show(settings: PickerDisplaySettings(discoveryTimeout: .unbounded))
        w.hear(12)
        #expect(w.core.grants.isEmpty && w.core.requests[1]?.candidates.count == 1)
    }

    @Test func disallowClosesAWindowAndSaysSoOnlyWhenOneWasOpen() throws {
        var w = World()
        w.apply { c, _, _ in c.disallow("acme", decidedBy: "administrator (uid 0)") }
        #expect(w.log.isEmpty)
        w.apply { c, now, _ in c.allow("acme", for: .seconds(60), decidedBy: "administrator (uid 0)", at: now) }
        w.apply { c, _, _ in c.disallow("acme", decidedBy: "administrator (uid 0)") }
        #expect(w.log.last?.event == .approvalWindowClosed)
        #expect(w.log.last?.metadata["decided_by"] == "administrator (uid 0)")
        try w.show()
        w.hear(12)
        #expect(w.core.grants.isEmpty)
    }

    @Test func withFilteringThePolicyWaitsForTheAppToShowACandidate() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        try w.show(settings: PickerDisplaySettings(filterDiscoveryResults: true))
        w.hear(12)
        #expect(w.core.grants.isEmpty)
        try w.decide { c throws(AccessorySetupError) in try c.updatePicker(session: 1, shown: [(1, "Porch", "")]) }
        #expect(w.core.grants.grants(of: "acme").map(\.displayName) == ["Porch"])
    }

    @Test func aPolicyApprovalThatCannotBeWrittenLeavesTheRequestOpen() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        try w.show()
        w.failWrites = true
        w.hear(12)
        #expect(w.core.grants.isEmpty)
        #expect(w.core.requests[1]?.visibleCandidates.count == 1)
        // The disk is back: the next chance approves it.
        w.failWrites = false
        w.apply { c, now, _ in c.allow("acme", for: .seconds(600), decidedBy: "administrator (uid 0)", at: now) }
        #expect(w.core.grants.all.count == 1)
    }
}
