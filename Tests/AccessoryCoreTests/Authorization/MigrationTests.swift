import Testing
@testable import AccessoryCore

/// Migration: accessories the gateway already knows, registered for an app
/// once approved, without telling it what another app holds.
@Suite struct MigrationTests {
    typealias World = AuthorizationWorld
    static let held = Grant(accessory: AccessoryID(0xB1), app: "globex", displayName: "Theirs", state: .authorized,
                            bluetooth: World.device(60))

    static func items(_ devices: [UInt64]) -> [MigrationItem] {
        devices.map { MigrationItem(name: "Old \($0)", identity: .bluetooth(World.device($0)), descriptor: DiscoveryDescriptor()) }
    }

    @discardableResult
    static func migrate(_ w: inout World, _ devices: [UInt64], session: UInt64 = 1) throws(AccessorySetupError) -> UInt32 {
        let items = Self.items(devices)
        return try w.run { c, now, _ throws(AccessorySetupError) in
            try c.migrate(session: session, manifest: World.acme, items: items, at: now)
        }
    }

    @Test func aMigrationIsARequestWhoseItemsAreItsCandidates() throws {
        var w = World()
        try Self.migrate(&w, [60, 61])
        let request = try #require(w.core.requests[1])
        #expect(request.isMigration && !request.discovering && request.visibleCandidates.count == 2)
        #expect(w.notices == ["session 1 pickerDidPresent", "agent requestAdded 1 acme",
                              "agent candidateAdded 1 1 Old 60", "agent candidateAdded 1 2 Old 61"])
        #expect(w.core.nextDeadline(registry: w.registry) == nil)
    }

    @Test func noItemsOrAnUndeclaredDescriptorAreInvalidRequests() {
        var w = World()
        do { try Self.migrate(&w, []); Issue.record("empty migration taken") } catch { #expect(error.code == .invalidRequest) }
        let undeclared = [MigrationItem(name: "x", identity: .bluetooth(World.device(1)),
                                        descriptor: DiscoveryDescriptor(bluetoothServiceUUID: BluetoothUUID(uuid16: 0xFEAA), bluetoothNameSubstring: "Acme"))]
        do {
            try w.run { c, now, _ throws(AccessorySetupError) in try c.migrate(session: 1, manifest: World.acme, items: undeclared, at: now) }
            Issue.record("undeclared descriptor taken")
        } catch {
            #expect(error.code == .invalidRequest)
        }
        #expect(w.core.requests.isEmpty)
    }

    @Test func aMigrationWhileAPickerIsOpenIsPickerAlreadyActive() throws {
        var w = World()
        try w.show()
        do { try Self.migrate(&w, [60], session: 2); Issue.record("second request taken") } catch {
            #expect(error.code == .pickerAlreadyActive)
        }
    }

    @Test func approvalRegistersEveryItemInOneWrite() throws {
        var w = World()
        try Self.migrate(&w, [60, 61])
        w.clearNotices()
        let ids = try w.approve(1, candidate: 0)
        #expect(ids.count == 2)
        #expect(w.written.count == 1)
        guard case .saveAll(let grants) = w.written.first else { Issue.record("\(w.written)"); return }
        #expect(Set(grants.map(\.accessory)) == Set(ids))
        #expect(w.notices == ids.map { "app acme accessoryAdded \($0)" }
                + ["session 1 migrationComplete", "session 1 pickerDidDismiss -", "agent requestEnded 1 approved"])
        #expect(w.log.last?.event == .accessoriesMigrated)
    }

    /// An item another app holds: the approval fails whole, naming it to
    /// the administrator; nothing is granted, the app is told nothing, and
    /// the request waits for the administrator's decision.
    @Test func anItemAnotherAppHoldsRefusesTheApprovalWholeAndTellsTheAppNothing() throws {
        var w = World(grants: [Self.held])
        try Self.migrate(&w, [60, 61])
        w.clearNotices()
        do {
            try w.approve(1, candidate: 0)
            Issue.record("approved")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect("\(error)".contains("\"Old 60\" (\(World.device(60))) is globex's accessory \(Self.held.accessory)"), "\(error)")
        }
        #expect(w.core.grants.grants(of: "acme").isEmpty && w.written.isEmpty)
        #expect(w.notices.isEmpty)
        #expect(w.core.requests[1] != nil)
    }

    /// The app's own items are skipped: it knows what it holds.
    @Test func itemsTheAppHoldsAlreadyAreSkipped() throws {
        var mine = Self.held
        mine.app = "acme"
        var w = World(grants: [mine])
        try Self.migrate(&w, [60, 61])
        let ids = try w.approve(1, candidate: 0)
        #expect(ids.count == 1)
        #expect(w.core.grants.grants(of: "acme").count == 2)
        #expect(w.log.last?.metadata["skipped"] == "1")
    }

    /// Whether a window could approve would depend on what other apps hold:
    /// a migration always waits for an administrator.
    @Test func anOpenWindowLeavesAMigrationToTheAdministrator() throws {
        var w = World()
        w.apply { c, now, _ in c.allow("acme", for: .seconds(60), decidedBy: "administrator (uid 0)", at: now) }
        try Self.migrate(&w, [60])
        #expect(w.core.requests[1] != nil && w.core.grants.grants(of: "acme").isEmpty)
    }

    @Test func aMigrationThatCannotBeWrittenStaysOpen() throws {
        var w = World()
        try Self.migrate(&w, [60])
        w.failWrites = true
        do { try w.approve(1, candidate: 0); Issue.record("written") } catch { #expect(error.code == .unknown) }
        #expect(w.core.requests[1] != nil && w.core.grants.isEmpty)
    }
}
