import Testing
@testable import AccessoryCore

/// Approving and denying a picker's candidate, and what a grant becomes.
@Suite struct GrantDecisionTests {
    typealias World = AuthorizationWorld

    func code(_ body: () throws(AccessorySetupError) -> Void) -> AccessorySetupError.Code? {
        do { try body(); return nil } catch { return error.code }
    }

    @Test func anApprovalWritesTheGrantThenTellsTheAppTheSessionAndTheAgent() throws {
        var w = World()
        try w.show()
        w.hear(12)
        w.clearNotices()
        let ids = try w.approve(1)
        let id = try #require(ids.first)
        let grant = try #require(w.core.grants[id])
        #expect(w.written == [.save(grant)])
        #expect(grant.bluetooth == World.device(12) && grant.state == .authorized && grant.descriptor == World.sensor)
        #expect(w.notices == ["app acme accessoryAdded \(id)", "session 1 pickerDidDismiss -", "agent requestEnded 1 approved"])
        #expect(w.core.requests.isEmpty && w.index.count == 0)
        // Just heard: present from the start, without news.
        #expect(GrantPresence.isPresent(grant, in: w.registry, at: w.now))
        #expect(w.core.presence.reported == [id])
    }

    @Test func unknownRequestsAndCandidatesAreInvalidRequests() throws {
        var w = World()
        #expect(code { () throws(AccessorySetupError) in try w.approve(9) } == .invalidRequest)
        #expect(code { () throws(AccessorySetupError) in try w.decide { c throws(AccessorySetupError) in try c.deny(9, decidedBy: "x") } } == .invalidRequest)
        try w.show(settings: PickerDisplaySettings(filterDiscoveryResults: true))
        #expect(code { () throws(AccessorySetupError) in try w.approve(1, candidate: 1) } == .invalidRequest)
        // Found but not shown by the app: not a candidate anyone may pick.
        w.hear(12)
        #expect(code { () throws(AccessorySetupError) in try w.approve(1, candidate: 1) } == .invalidRequest)
        #expect(w.core.grants.isEmpty)
    }

    @Test func aNameIsTakenOnlyWhenTheItemOffersRenaming() throws {
        var w = World()
        try w.show()
        w.hear(12)
        #expect(code { () throws(AccessorySetupError) in try w.approve(1, name: "Porch") } == .invalidRequest)
        // An empty name is no name.
        #expect(try w.approve(1, name: "").count == 1)

        var r = World()
        try r.show(items: [PickerDisplayItem(name: "Acme sensor", descriptor: World.sensor, setupOptions: [.rename])])
        r.hear(12)
        let id = try #require(try r.approve(1, name: "Porch").first)
        #expect(r.core.grants[id]?.displayName == "Porch")
        #expect(r.notices.contains("session 1 pickerSetupRename \(id)"))
    }

    @Test func anItemTheAppFinishesWaitsForItsAuthorization() throws {
        var w = World()
        try w.show(items: [PickerDisplayItem(name: "Acme sensor", descriptor: World.sensor, setupOptions: [.finishInApp])])
        w.hear(12)
        let id = try #require(try w.approve(1).first)
        #expect(w.core.grants[id]?.state == .awaitingAuthorization)
    }

    @Test func aDeviceAlreadyGrantedToAnotherAppCannotBeApprovedAgain() throws {
        var w = World()
        let other = AppManifest(app: "initech", supports: [.bluetooth], bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)],
                                bluetoothNames: ["Acme"])
        try w.show(session: 1)
        try w.show(session: 2, other, items: [PickerDisplayItem(name: "Any", descriptor: World.sensor)])
        w.hear(12)
        #expect(w.core.requests[2]?.candidates.count == 1)
        try w.approve(1)
        do {
            try w.approve(2)
            Issue.record("granted twice")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.reason?.description.hasSuffix("already granted to another app") == true)
        }
        #expect(w.core.grants.all.count == 1)
    }

    @Test func aDenialIsUserCancelledForTheAppAndDeniedForTheAgent() throws {
        var w = World()
        try w.show()
        w.clearNotices()
        try w.decide { c throws(AccessorySetupError) in try c.deny(1, decidedBy: "agent :1.7") }
        #expect(w.notices == ["session 1 pickerDidDismiss userCancelled", "agent requestEnded 1 denied"])
        #expect(w.log.last?.message == "acme's request 1 denied by agent :1.7")
    }

    @Test func aGrantThatCannotBeWrittenChangesNothingAndTellsNobody() throws {
        var w = World()
        try w.show()
        w.hear(12)
        w.clearNotices()
        let before = w.core.requests[1]?.candidates
        w.failWrites = true
        #expect(code { () throws(AccessorySetupError) in try w.approve(1) } == .unknown)
        #expect(w.core.grants.isEmpty && w.notices.isEmpty)
        #expect(w.core.requests[1]?.candidates == before)
        w.failWrites = false
        #expect(try w.approve(1).count == 1)
    }

    @Test func aGrantedDeviceIsNeverOfferedAgain() throws {
        var w = World()
        try w.show()
        w.hear(12)
        try w.approve(1)
        try w.show(session: 2)
        w.hear(12)
        w.hear(13, name: "Acme 13")
        #expect(w.core.requests[2]?.candidates.map(\.advertisedName) == ["Acme 13"])
    }
}
