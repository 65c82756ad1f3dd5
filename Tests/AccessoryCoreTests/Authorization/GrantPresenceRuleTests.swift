import Testing
@testable import AccessoryCore

/// A granted accessory's presence is the registry's: present while heard
/// within what its own advertising interval allows; its app is told of each
/// change once, and of each new advertisement.
@Suite struct GrantPresenceRuleTests {
    typealias World = AuthorizationWorld
    static let porch = Grant(accessory: AccessoryID(0xC1), app: "acme", displayName: "Porch", state: .authorized,
                             bluetooth: World.device(50))
    static let camera = Grant(accessory: AccessoryID(0xC2), app: "acme", displayName: "Camera", state: .authorized,
                              ssid: SSID("ACME-Cam"))

    @Test func heardIsPresentOnceAndEachNewAdvertisementIsPassedOn() {
        var w = World(grants: [Self.porch])
        #expect(!GrantPresence.isPresent(Self.porch, in: w.registry, at: w.now))
        w.hear(50)
        w.clock.advance(by: .seconds(1))
        w.hear(50)
        w.clock.advance(by: .seconds(1))
        w.hear(50, extra: 1)
        #expect(GrantPresence.isPresent(Self.porch, in: w.registry, at: w.now))
        #expect(w.notices.map { String($0.prefix(28)) } == ["presence acme 00000000000000", "advertisement acme 000000000",
                                                             "advertisement acme 000000000"])
        #expect(w.notices.first == "presence acme \(Self.porch.accessory) true -50")
    }

    @Test func silentForLongerThanItsIntervalAllowsItIsAbsentAtTheDeadline() {
        var w = World(grants: [Self.porch])
        for _ in 0..<4 { w.hear(50); w.clock.advance(by: .seconds(20)) }
        w.clock.advance(by: .seconds(-0))
        w.clearNotices()
        // Three learned intervals (60 s) after the last one heard, 20 s ago.
        let deadline = w.core.nextDeadline(registry: w.registry)
        #expect(deadline == w.now.advanced(by: .seconds(40)))
        w.advance(by: .seconds(39))
        #expect(w.notices.isEmpty)
        w.runToDeadline()
        #expect(w.notices == ["presence acme \(Self.porch.accessory) false -"])
        #expect(!GrantPresence.isPresent(Self.porch, in: w.registry, at: w.now))
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
        // Heard again: present again, and told so.
        w.hear(50)
        #expect(w.notices.last?.hasPrefix("advertisement") == true)
        #expect(w.notices.contains("presence acme \(Self.porch.accessory) true -50"))
    }

    @Test func aWiFiAccessoryIsPresentByItsSSIDFromAnyBSSID() {
        var w = World(grants: [Self.camera])
        w.hear(ssid: "ACME-Cam", bssid: 0x0200_0000_0001, signal: -40)
        w.clock.advance(by: .seconds(1))
        w.hear(ssid: "ACME-Cam", bssid: 0x0200_0000_0002, signal: -70)
        #expect(w.notices == ["presence acme \(Self.camera.accessory) true -40"])
        #expect(GrantPresence.rssi(Self.camera, in: w.registry, at: w.now) == -70)
    }

    @Test func onlyAGrantedDevicesOrAnyBSSsSightingsConcernTheCore() {
        #expect(World(grants: [Self.porch]).core.concerns(.bluetooth(World.device(50))))
        #expect(!World(grants: [Self.porch]).core.concerns(.bluetooth(World.device(51))))
        #expect(!World().core.concerns(.bluetooth(World.device(50))))
        // A BSS names no SSID by its key: it may be a granted hotspot's.
        #expect(World().core.concerns(.wifi(BSSID(rawValue: 0x0200_0000_0001)!)))
    }

    @Test func anUngrantedDeviceConcernsNobody() {
        var w = World(grants: [Self.porch])
        w.hear(51)
        #expect(w.notices.isEmpty && w.core.presence.reported.isEmpty)
    }

    @Test func aRemovedAccessoryIsNoLongerFollowed() throws {
        var w = World(grants: [Self.porch])
        w.hear(50)
        try w.decide { c throws(AccessorySetupError) in try c.remove(Self.porch.accessory, app: "acme", decidedBy: "app acme") }
        #expect(w.core.presence.reported.isEmpty)
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
        w.clearNotices()
        w.hear(50)
        #expect(w.notices.isEmpty)
    }
}
