import Testing
@testable import AccessoryCore

/// A granted accessory's life: the app finishing, failing or updating its
/// authorization, removal and renaming, by the app or the administrator.
@Suite struct AccessoryLifecycleTests {
    typealias World = AuthorizationWorld
    static let porch = Grant(accessory: AccessoryID(0xC1), app: "acme", displayName: "Porch", state: .authorized,
                             bluetooth: World.device(50), descriptor: World.sensor)
    static let camera = Grant(accessory: AccessoryID(0xC2), app: "acme", displayName: "Camera", state: .awaitingAuthorization,
                              ssid: SSID("ACME-Cam"), descriptor: World.camera)

    func world() -> World { World(grants: [Self.porch, Self.camera]) }

    func refusal(_ w: inout World, _ input: (inout AuthorizationCore) throws(AccessorySetupError) -> AuthorizationDecision) -> AccessorySetupError? {
        do { try w.decide(input); return nil } catch { return error }
    }

    @Test func finishingAuthorizationAuthorizesWithTheSettingsGiven() throws {
        var w = world()
        try w.decide { c throws(AccessorySetupError) in
            try c.finishAuthorization(Self.camera.accessory, app: "acme", ssid: SSID("ACME-Cam-2"), bridgingIdentifier: "hub-1")
        }
        let grant = try #require(w.core.grants[Self.camera.accessory])
        #expect(grant.state == .authorized && grant.ssid == SSID("ACME-Cam-2") && grant.bridgingIdentifier == "hub-1")
        #expect(w.written == [.save(grant)])
        #expect(w.notices == ["app acme accessoryChanged \(grant.accessory)"])
    }

    @Test func finishingWhatIsNotAwaitingAuthorizationIsAnInvalidRequest() {
        var w = world()
        let error = refusal(&w) { c throws(AccessorySetupError) in
            try c.finishAuthorization(Self.porch.accessory, app: "acme", ssid: nil, bridgingIdentifier: nil)
        }
        #expect(error?.code == .invalidRequest)
        #expect(w.written.isEmpty)
    }

    @Test func failingAuthorizationRemovesTheAccessoryAndSaysTheSetupFailed() throws {
        var w = world()
        try w.decide { c throws(AccessorySetupError) in try c.failAuthorization(Self.camera.accessory, app: "acme") }
        #expect(w.core.grants[Self.camera.accessory] == nil)
        #expect(w.written == [.remove(Self.camera.accessory)])
        #expect(w.notices == ["app acme accessoryRemoved \(Self.camera.accessory)", "app acme pickerSetupFailed unknown"])
    }

    @Test func updatingAuthorizationTakesOnlyADescriptorTheManifestDeclares() throws {
        var w = world()
        let undeclared = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0xFEAA), bluetoothNameSubstring: "Acme")
        #expect(refusal(&w) { c throws(AccessorySetupError) in
            try c.updateAuthorization(Self.porch.accessory, manifest: World.acme, descriptor: undeclared)
        }?.code == .invalidRequest)
        let other = DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0x180F), bluetoothNameSubstring: "Acme",
                                        bluetoothRange: .immediate)
        try w.decide { c throws(AccessorySetupError) in
            try c.updateAuthorization(Self.porch.accessory, manifest: World.acme, descriptor: other)
        }
        #expect(w.core.grants[Self.porch.accessory]?.descriptor == other)
        #expect(w.notices == ["app acme accessoryChanged \(Self.porch.accessory)"])
    }

    @Test func anAppRemovesItsOwnAndTheAdministratorAnyone() throws {
        var w = world()
        try w.decide { c throws(AccessorySetupError) in try c.remove(Self.porch.accessory, app: "acme", decidedBy: "app acme") }
        try w.decide { c throws(AccessorySetupError) in try c.remove(Self.camera.accessory, app: nil, decidedBy: "administrator (uid 0)") }
        #expect(w.core.grants.isEmpty)
        #expect(w.notices == ["app acme accessoryRemoved \(Self.porch.accessory)", "app acme accessoryRemoved \(Self.camera.accessory)"])
        #expect(w.log.map(\.event) == [.accessoryRemoved, .accessoryRemoved])
    }

    @Test func anUnknownAccessoryAndAnotherAppsAreTheSameUnknownAccessory() {
        var w = world()
        let unknown = refusal(&w) { c throws(AccessorySetupError) in try c.remove(AccessoryID(0x99), app: "acme", decidedBy: "app acme") }
        let others = refusal(&w) { c throws(AccessorySetupError) in try c.remove(Self.porch.accessory, app: "globex", decidedBy: "app globex") }
        #expect(unknown?.code == .invalidRequest && others?.code == .invalidRequest)
        #expect(unknown?.reason?.description == "unknown accessory 0000000000000099")
        #expect(others?.reason?.description == "unknown accessory \(Self.porch.accessory)")
        #expect(w.core.grants.all.count == 2)
    }

    @Test func aRemovalThatCannotBeWrittenKeepsTheGrant() {
        var w = world()
        w.failWrites = true
        let error = refusal(&w) { c throws(AccessorySetupError) in try c.remove(Self.porch.accessory, app: "acme", decidedBy: "app acme") }
        #expect(error?.code == .unknown)
        #expect(w.core.grants[Self.porch.accessory] == Self.porch && w.notices.isEmpty)
    }

    @Test func renamingChangesTheNameForTheAppAlone() throws {
        var w = world()
        try w.decide { c throws(AccessorySetupError) in
            try c.rename(Self.porch.accessory, app: "acme", to: "Front door", renameSSID: false, decidedBy: "app acme")
        }
        #expect(w.core.grants[Self.porch.accessory]?.displayName == "Front door")
        #expect(w.notices == ["app acme accessoryChanged \(Self.porch.accessory)"])
        #expect(w.log.last?.metadata["ssid_renamed"] == "false")
    }

    @Test func aNameNeedsTextWithoutControlCharacters() {
        var w = world()
        for name in ["", "Front\u{1B}[2Jdoor", "a\nb"] {
            #expect(refusal(&w) { c throws(AccessorySetupError) in
                try c.rename(Self.porch.accessory, app: nil, to: name, renameSSID: false, decidedBy: "administrator (uid 0)")
            }?.code == .invalidRequest)
        }
        #expect(w.core.grants[Self.porch.accessory]?.displayName == "Porch")
    }

    @Test func renamingTheSSIDRenamesAWiFiAccessorysHotspot() throws {
        var w = world()
        try w.decide { c throws(AccessorySetupError) in
            try c.rename(Self.camera.accessory, app: "acme", to: "ACME-Garden", renameSSID: true, decidedBy: "app acme")
        }
        let grant = try #require(w.core.grants[Self.camera.accessory])
        #expect(grant.ssid == SSID("ACME-Garden") && grant.ssidRenamed && grant.displayName == "ACME-Garden")
        #expect(w.core.grants.holder(of: .wifi(SSID("ACME-Garden")!))?.accessory == grant.accessory)
        #expect(w.core.grants.holder(of: .wifi(SSID("ACME-Cam")!)) == nil)
    }

    @Test func theSSIDOptionNeedsAWiFiAccessoryAndAShortEnoughName() {
        var w = world()
        #expect(refusal(&w) { c throws(AccessorySetupError) in
            try c.rename(Self.porch.accessory, app: "acme", to: "Porch-2", renameSSID: true, decidedBy: "app acme")
        }?.code == .invalidRequest)
        #expect(refusal(&w) { c throws(AccessorySetupError) in
            try c.rename(Self.camera.accessory, app: "acme", to: String(repeating: "x", count: 33), renameSSID: true, decidedBy: "app acme")
        }?.code == .invalidRequest)
        #expect(w.core.grants[Self.camera.accessory] == Self.camera && w.written.isEmpty)
    }
}
