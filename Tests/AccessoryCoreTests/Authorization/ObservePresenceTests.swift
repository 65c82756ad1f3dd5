import Testing
@testable import AccessoryCore

/// `ObservePresence`: the wish is written with the grant, goes with it, and
/// another app's accessory is as unknown as one that does not exist.
@Suite struct ObservePresenceTests {
    typealias World = AuthorizationWorld

    static var acme: AppManifest {
        var manifest = World.acme
        manifest.wakeSocket = "acme-wake.socket"
        return manifest
    }

    func granted() throws -> (World, AccessoryID) {
        var w = World()
        try w.show(session: 1)
        w.hear(12)
        try w.approve(1)
        return (w, try #require(w.core.grants.grants(of: "acme").first?.accessory))
    }

    @Test func theWishIsWrittenWithTheGrantAndWithdrawn() throws {
        var (w, id) = try granted()
        try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: Self.acme, observe: true) }
        #expect(w.core.grants[id]?.observesPresence == true)
        guard case .save(let saved) = w.written.last else { Issue.record("no write"); return }
        #expect(saved.observesPresence)
        let writes = w.written.count
        // Asking again changes nothing and writes nothing.
        try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: Self.acme, observe: true) }
        #expect(w.written.count == writes)
        try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: Self.acme, observe: false) }
        #expect(w.core.grants[id]?.observesPresence == false)
    }

    @Test func theWishGoesWithTheGrant() throws {
        var (w, id) = try granted()
        try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: Self.acme, observe: true) }
        try w.decide { c throws(AccessorySetupError) in try c.remove(id, app: "acme", decidedBy: "app acme") }
        #expect(w.core.grants[id] == nil)
        #expect(w.written.last == .remove(id))
    }

    @Test func aFailedWriteKeepsTheOldState() throws {
        var (w, id) = try granted()
        w.failWrites = true
        #expect(throws: AccessorySetupError.self) {
            try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: Self.acme, observe: true) }
        }
        #expect(w.core.grants[id]?.observesPresence == false)
    }

    @Test func aManifestWithoutAWakeSocketIsRefused() throws {
        var (w, id) = try granted()
        do {
            try w.decide { c throws(AccessorySetupError) in try c.observePresence(id, manifest: World.acme, observe: true) }
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.reason?.description.contains("WakeSocket=") == true)
        }
    }

    /// Another app's accessory and one that does not exist get the same answer.
    @Test func anotherAppsAccessoryIsUnknown() throws {
        var (w, id) = try granted()
        var globex = World.globex
        globex.wakeSocket = "globex.socket"
        func refusal(_ target: AccessoryID) -> String? {
            do {
                try w.decide { c throws(AccessorySetupError) in try c.observePresence(target, manifest: globex, observe: true) }
                return nil
            } catch {
                guard error.code == .invalidRequest else { return "not invalidRequest" }
                return (error.reason?.description ?? "").replacing("\(target)", with: "ID")
            }
        }
        let other = refusal(id)
        #expect(other != nil)
        #expect(other == refusal(AccessoryID(0xDEAD)))
        #expect(w.core.grants[id]?.observesPresence == false)
    }
}
