import Testing
@testable import AccessoryCore

/// Whether the radios must scan for the apps is a pure function of the open
/// requests and the grants.
@Suite struct AuthorizationDemandTests {
    typealias World = AuthorizationWorld

    @Test func nothingAskedNothingGrantedNothingWanted() {
        let demand = World().core.demand
        #expect(!demand.wifi && !demand.bluetooth && demand.probeSSIDs.isEmpty)
    }

    @Test func aWiFiPickerWantsWiFiWhileItDiscovers() throws {
        var w = World()
        try w.show(items: [PickerDisplayItem(name: "Cam", descriptor: DiscoveryDescriptor(ssid: SSID("ACME-Cam")))])
        #expect(w.core.demand.wifi && !w.core.demand.bluetooth)
        #expect(w.core.demand.probeSSIDs == [SSID("ACME-Cam")!])
        try w.decide { c throws(AccessorySetupError) in try c.withdraw(session: 1) }
        #expect(!w.core.demand.wifi && w.core.demand.probeSSIDs.isEmpty)
    }

    @Test func aBluetoothPickerWantsBluetoothOnly() throws {
        var w = World()
        try w.show()
        #expect(w.core.demand.bluetooth && !w.core.demand.wifi)
        w.runToDeadline()
        #expect(!w.core.demand.bluetooth)
    }

    @Test func grantedAccessoriesKeepTheirRadioWantedUntilRemoved() throws {
        let camera = Grant(accessory: AccessoryID(0xC2), app: "acme", displayName: "Camera", state: .authorized, ssid: SSID("ACME-Cam"))
        var w = World(grants: [camera])
        #expect(w.core.demand.wifi && !w.core.demand.bluetooth)
        try w.decide { c throws(AccessorySetupError) in try c.remove(camera.accessory, app: nil, decidedBy: "administrator (uid 0)") }
        #expect(!w.core.demand.wifi)
    }
}
