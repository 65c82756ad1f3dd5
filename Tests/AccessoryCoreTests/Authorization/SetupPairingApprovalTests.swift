import Testing
@testable import AccessoryCore

/// Approval of an accessory whose descriptor asks for pairing: the request
/// stays open while it pairs, the grant comes only with the pairing's
/// success, and every other end keeps nothing.
@Suite struct SetupPairingApprovalTests {
    static let manifest: AppManifest = {
        var manifest = AuthorizationWorld.acme
        manifest.bluetoothPairing = true
        return manifest
    }()

    static let lock: DiscoveryDescriptor = {
        var descriptor = AuthorizationWorld.sensor
        descriptor.supportedOptions = [.bluetoothPairingLE]
        return descriptor
    }()

    /// A request for the lock, heard and shown, approved by the administrator: pairing started.
    func approvedLock() throws -> (AuthorizationWorld, PendingPairing) {
        var w = AuthorizationWorld()
        let number = try w.show(Self.manifest, items: [PickerDisplayItem(name: "Acme lock", descriptor: Self.lock)])
        w.hear(12)
        w.clearNotices()
        let reserved = try w.approve(number)
        guard case .start(let pending)? = w.pairingOrders.last else {
            Issue.record("no pairing started: \(w.pairingOrders)")
            throw AccessorySetupError(.unknown)
        }
        // The id it will have, for the administrator: nothing is granted under it yet.
        #expect(reserved == [pending.accessory])
        return (w, pending)
    }

    @Test func approvalStartsThePairingAndGrantsNothingYet() throws {
        let (w, pending) = try approvedLock()
        #expect(pending.device == AuthorizationWorld.device(12))
        #expect(pending.session == 1 && pending.app == "acme" && pending.name == "Acme 12")
        #expect(pending.approver == .administrator)
        #expect(w.core.grants.all.isEmpty)
        #expect(w.written.isEmpty)
        // The app hears nothing until the pairing announces itself; the request is still open.
        #expect(w.notices.isEmpty)
        #expect(w.core.requests[pending.request] != nil)
        #expect(w.log.contains { $0.event == .setupPairingStarted })
    }

    @Test func thePairingRemembersWhoApprovedSoThatTheyAnswerItsPrompts() throws {
        var w = AuthorizationWorld()
        let number = try w.show(Self.manifest, items: [PickerDisplayItem(name: "Acme lock", descriptor: Self.lock)])
        w.hear(12)
        try w.approve(number, by: "agent :1.42", approver: .agent(":1.42"))
        guard case .start(let pending)? = w.pairingOrders.last else {
            Issue.record("no pairing started: \(w.pairingOrders)")
            return
        }
        #expect(pending.approver == .agent(":1.42"))
        #expect(pending.decidedBy == "agent :1.42")
    }

    @Test func aSecondApprovalWhilePairingIsRefusedByName() throws {
        var (w, pending) = try approvedLock()
        #expect(throws: AccessorySetupError.self) { try w.approve(pending.request) }
        #expect(w.pairingOrders.count == 1)
    }

    @Test func completionGrantsUnderTheReservedIDInApprovalsOrder() throws {
        var (w, pending) = try approvedLock()
        let granted = try w.run { core, now, registry throws(AccessorySetupError) in
            try core.completePairing(pending.request, registry: registry, at: now)
        }
        #expect(granted == [pending.accessory])
        #expect(w.core.grants[pending.accessory]?.bluetooth == AuthorizationWorld.device(12))
        #expect(w.written.count == 1)
        #expect(w.notices == ["app acme accessoryAdded \(pending.accessory)", "session 1 pickerDidDismiss -",
                              "agent requestEnded \(pending.request) approved"])
        // Granted: its close cancels no pairing.
        #expect(w.pairingOrders.count == 1)
    }

    @Test func anAccessoryThatSharedItsIdentityIsGrantedUnderIt() throws {
        // Heard under a private address it will leave; the pairing gave its identity address.
        var (w, pending) = try approvedLock()
        let identity = AuthorizationWorld.device(99)
        try w.run { core, now, registry throws(AccessorySetupError) in
            try core.completePairing(pending.request, identity: identity, registry: registry, at: now)
        }
        #expect(w.core.grants[pending.accessory]?.bluetooth == identity)
        #expect(w.log.contains { $0.event == .accessoryApproved && $0.metadata["identity"] == "\(identity)" })
        // The bond goes with the grant, under the identity it names.
        try w.decide { core throws(AccessorySetupError) in try core.remove(pending.accessory, app: "acme", decidedBy: "app acme") }
        #expect(w.pairingOrders.last == .removeBond(pending.accessory, identity))
    }

    @Test func failureEndsTheRequestWithTheReasonAndGrantsNothing() throws {
        var (w, pending) = try approvedLock()
        w.apply { core, _, _ in core.failPairing(pending.request, failure: .rejectedByAccessory) }
        #expect(w.core.grants.all.isEmpty && w.written.isEmpty)
        #expect(w.core.requests[pending.request] == nil)
        #expect(w.notices == ["session 1 pickerSetupFailed connectionFailed", "session 1 pickerDidDismiss connectionFailed",
                              "agent requestEnded \(pending.request) pairing failed"])
        #expect(w.log.contains { $0.event == .setupPairingFailed && $0.metadata["reason"] == "rejectedByAccessory" })
        // Over: a late completion finds nothing.
        #expect(throws: AccessorySetupError.self) {
            try w.run { core, now, registry throws(AccessorySetupError) in try core.completePairing(pending.request, registry: registry, at: now) }
        }
    }

    @Test func theAppWithdrawingStopsThePairing() throws {
        var (w, pending) = try approvedLock()
        try w.decide { core throws(AccessorySetupError) in try core.withdraw(session: 1) }
        #expect(w.pairingOrders.last == .cancel(request: pending.request))
        #expect(w.core.pairings.isEmpty && w.core.grants.all.isEmpty)
    }

    @Test func removingAPairedAccessoryDropsItsBondAndRenamingKeepsIt() throws {
        var (w, pending) = try approvedLock()
        try w.run { core, now, registry throws(AccessorySetupError) in try core.completePairing(pending.request, registry: registry, at: now) }
        try w.decide { core throws(AccessorySetupError) in
            try core.rename(pending.accessory, app: "acme", to: "Front door", renameSSID: false, decidedBy: "app acme")
        }
        #expect(w.pairingOrders.count == 1)
        try w.decide { core throws(AccessorySetupError) in try core.remove(pending.accessory, app: "acme", decidedBy: "app acme") }
        #expect(w.pairingOrders.last == .removeBond(pending.accessory, AuthorizationWorld.device(12)))
    }

    @Test func aDescriptorWithoutPairingIsGrantedAtOnce() throws {
        var w = AuthorizationWorld()
        let number = try w.show(Self.manifest)
        w.hear(12)
        #expect(try w.approve(number).count == 1)
        #expect(w.pairingOrders.isEmpty)
    }
}
