import Testing
@testable import AccessoryCore

/// What belongs to one app never reaches another: its requests, its
/// candidates, its accessories, their presence and advertisements.
@Suite struct AppIsolationTests {
    typealias World = AuthorizationWorld

    /// acme (session 1) and globex (session 2) both ask; acme gets device 12.
    func twoApps() throws -> World {
        var w = World()
        try w.show(session: 1)
        try w.show(session: 2, World.globex, items: [PickerDisplayItem(name: "Thermo", descriptor: World.thermometer)],
                   settings: PickerDisplaySettings(filterDiscoveryResults: true))
        w.hear(12)
        w.hear(20, name: "Thermo", service: 0x181A)
        try w.approve(1)
        return w
    }

    @Test func anAppHearsOnlyOfItsOwnSessionsAndAccessories() throws {
        var w = try twoApps()
        let acmeID = try #require(w.core.grants.grants(of: "acme").first?.accessory)
        w.clock.advance(by: .seconds(1))
        w.hear(12, extra: 1)
        let globex = w.notices(of: "globex", sessions: [2])
        #expect(globex == ["session 2 pickerDidPresent", "session 2 accessoryDiscovered 1 Thermo"])
        #expect(!w.notices.contains { $0.contains("\(acmeID)") && !$0.hasPrefix("app acme") && !$0.hasPrefix("advertisement acme")
                                         && !$0.hasPrefix("presence acme") })
    }

    @Test func aDeviceMatchesOnlyTheDescriptorsOfTheAppThatAsked() throws {
        let w = try twoApps()
        #expect(w.core.requests[2]?.candidates.map(\.advertisedName) == ["Thermo"])
        #expect(w.core.grants.grants(of: "acme").map(\.bluetooth) == [World.device(12)])
    }

    @Test func anotherAppsAccessoryIsUnknownToEveryCall() throws {
        var w = try twoApps()
        let acmeID = try #require(w.core.grants.grants(of: "acme").first?.accessory)
        #expect(w.core.grants.grants(of: "globex").isEmpty)
        #expect(throws: AccessorySetupError.self) { try w.core.grants.owned(acmeID, by: "globex") }
        let before = w.core.grants.all
        func refused(_ input: (inout AuthorizationCore) throws(AccessorySetupError) -> AuthorizationDecision) -> String? {
            do { try w.decide(input); return nil } catch { return error.reason?.description }
        }
        let unknown = "unknown accessory \(acmeID)"
        #expect(refused { c throws(AccessorySetupError) in try c.rename(acmeID, app: "globex", to: "Mine", renameSSID: false, decidedBy: "app globex") } == unknown)
        #expect(refused { c throws(AccessorySetupError) in try c.remove(acmeID, app: "globex", decidedBy: "app globex") } == unknown)
        #expect(refused { c throws(AccessorySetupError) in try c.failAuthorization(acmeID, app: "globex") } == unknown)
        #expect(refused { c throws(AccessorySetupError) in try c.finishAuthorization(acmeID, app: "globex", ssid: nil, bridgingIdentifier: nil) } == unknown)
        #expect(w.core.grants.all == before)
    }

    @Test func oneAppsCallsNeverEndAnotherAppsRequest() throws {
        var w = try twoApps()
        w.apply { c, _, _ in c.sessionEnded(1) }
        do { try w.decide { c throws(AccessorySetupError) in try c.withdraw(session: 1) }; Issue.record("withdrew") } catch {
            #expect(error.code == .invalidRequest)
        }
        #expect(w.core.requests[2] != nil)
    }
}
