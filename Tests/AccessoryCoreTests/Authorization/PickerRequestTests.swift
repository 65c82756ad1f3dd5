import Testing
@testable import AccessoryCore

/// Asking: `showPicker`, `updatePicker`, `finishPickerDiscovery`,
/// `DismissPicker` and a session ending, with every error an app can meet.
@Suite struct PickerRequestTests {
    typealias World = AuthorizationWorld

    func code(_ body: () throws(AccessorySetupError) -> Void) -> AccessorySetupError.Code? {
        do { try body(); return nil } catch { return error.code }
    }

    @Test func aPickerIsPresentedAndItsDescriptorsAreIndexed() throws {
        var w = World()
        let number = try w.show()
        #expect(number == 1)
        #expect(w.notices == ["session 1 pickerDidPresent", "agent requestAdded 1 acme"])
        #expect(w.log.map(\.event) == [.setupRequested])
        #expect(w.index.count == 1)
        #expect(w.core.requests[1]?.discovering == true)
    }

    @Test func noItemsOrTooManyAreAnInvalidRequest() {
        var w = World()
        #expect(code { () throws(AccessorySetupError) in try w.show(items: []) } == .invalidRequest)
        let many = Array(repeating: PickerDisplayItem(name: "x", descriptor: World.sensor), count: 0x10000)
        #expect(code { () throws(AccessorySetupError) in try w.show(items: many) } == .invalidRequest)
        #expect(w.core.requests.isEmpty && w.notices.isEmpty)
    }

    @Test func aMalformedOrUndeclaredDescriptorIsAnInvalidRequestWithItsReason() {
        var w = World()
        do {
            try w.show(items: [PickerDisplayItem(name: "x", descriptor: DiscoveryDescriptor())])
            Issue.record("a descriptor describing nothing was taken")
        } catch {
            #expect(error.code == .invalidRequest)
            guard case .invalidDescriptor = error.reason else { Issue.record("\(error)"); return }
        }
        do {
            try w.show(items: [PickerDisplayItem(name: "x", descriptor: DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0xFEAA), bluetoothNameSubstring: "Acme"))])
            Issue.record("an undeclared service was taken")
        } catch {
            #expect(error.code == .invalidRequest)
            guard case .undeclared = error.reason else { Issue.record("\(error)"); return }
        }
        #expect(w.core.requests.isEmpty && w.index.count == 0)
    }

    @Test func aSecondPickerOfTheSameAppIsPickerAlreadyActiveButAnotherAppMayAsk() throws {
        var w = World()
        try w.show(session: 1)
        #expect(code { () throws(AccessorySetupError) in try w.show(session: 2) } == .pickerAlreadyActive)
        let other = try w.show(session: 3, World.globex, items: [PickerDisplayItem(name: "Thermo", descriptor: World.thermometer)])
        #expect(other == 2)
        #expect(w.core.requests.open.count == 2)
    }

    @Test func callsThatNeedAnOpenPickerSayThereIsNone() {
        var w = World()
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.finishDiscovery(session: 1) } } == .invalidRequest)
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.withdraw(session: 1) } } == .invalidRequest)
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.updatePicker(session: 1, shown: [(1, "x", "")]) } } == .invalidRequest)
        #expect(w.notices.isEmpty)
    }

    @Test func aDeviceHeardLatelyIsACandidateAtOnce() throws {
        var w = World()
        w.hear(12)
        try w.show()
        #expect(w.core.requests[1]?.visibleCandidates.map(\.advertisedName) == ["Acme 12"])
        #expect(w.notices.last == "agent candidateAdded 1 1 Acme 12")
    }

    @Test func aDeviceHeardTooLongAgoIsNotOffered() throws {
        var w = World()
        w.hear(12)
        w.advance(by: .seconds(600))
        try w.show()
        #expect(w.core.requests[1]?.candidates.isEmpty == true)
    }

    @Test func eachDeviceIsOneCandidateHoweverOftenItIsHeard() throws {
        var w = World()
        try w.show()
        for _ in 0..<3 { w.hear(12); w.clock.advance(by: .seconds(1)) }
        w.hear(13, name: "Acme 13")
        #expect(w.core.requests[1]?.candidates.map(\.number) == [1, 2])
    }

    @Test func withFilteringTheAppSeesCandidatesFirstAndShowsThem() throws {
        var w = World()
        try w.show(settings: PickerDisplaySettings(filterDiscoveryResults: true))
        w.hear(12)
        #expect(w.notices.last == "session 1 accessoryDiscovered 1 Acme 12")
        #expect(w.core.requests[1]?.visibleCandidates.isEmpty == true)
        try w.decide { c throws(AccessorySetupError) in try c.updatePicker(session: 1, shown: [(1, "Porch sensor", "/img.png")]) }
        #expect(w.notices.last == "agent candidateAdded 1 1 Porch sensor")
        #expect(w.core.requests[1]?.visibleCandidates.first?.productImagePath == "/img.png")
        // An unknown candidate is refused.
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.updatePicker(session: 1, shown: [(9, "x", "")]) } } == .invalidRequest)
    }

    @Test func updatePickerWithoutFilteringIsAnInvalidRequest() throws {
        var w = World()
        try w.show()
        w.hear(12)
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.updatePicker(session: 1, shown: [(1, "x", "")]) } } == .invalidRequest)
    }

    @Test func finishingDiscoveryWithNothingEndsWithDiscoveryTimeout() throws {
        var w = World()
        try w.show()
        w.clearNotices()
        try w.decide { c throws(AccessorySetupError) in try c.finishDiscovery(session: 1) }
        #expect(w.notices == ["session 1 pickerDidDismiss discoveryTimeout", "agent requestEnded 1 timed out"])
        #expect(w.core.requests.isEmpty && w.index.count == 0)
    }

    @Test func finishingDiscoveryKeepsTheCandidatesAndStopsLooking() throws {
        var w = World()
        try w.show()
        w.hear(12)
        try w.decide { c throws(AccessorySetupError) in try c.finishDiscovery(session: 1) }
        #expect(w.core.requests[1]?.discovering == false)
        #expect(w.index.count == 0)
        w.hear(13, name: "Acme 13")
        #expect(w.core.requests[1]?.candidates.count == 1)
    }

    @Test func withdrawingIsUserCancelledAndALateApprovalFindsNothing() throws {
        var w = World()
        try w.show()
        w.hear(12)
        w.clearNotices()
        try w.decide { c throws(AccessorySetupError) in try c.withdraw(session: 1) }
        #expect(w.notices == ["session 1 pickerDidDismiss userCancelled", "agent requestEnded 1 cancelled"])
        #expect(w.log.last?.metadata["decided_by"] == "app acme")
        #expect(code { () throws(AccessorySetupError) in try w.approve(1) } == .invalidRequest)
        #expect(w.core.grants.isEmpty && w.written.isEmpty)
    }

    @Test func aSessionEndingEndsItsRequestQuietlyForTheApp() throws {
        var w = World()
        try w.show()
        w.clearNotices()
        w.apply { c, _, _ in c.sessionEnded(1) }
        #expect(w.notices == ["agent requestEnded 1 cancelled"])
        #expect(w.core.requests.isEmpty && w.index.count == 0)
        // Another session's end changes nothing.
        w.apply { c, _, _ in c.sessionEnded(5) }
        #expect(w.notices.count == 1)
    }
}
