import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// `Session1.ObservePresence` through the real service on a private bus,
/// with the real grant store on disk, and the waker wired to the center as
/// the daemon wires it: the wish is durable, another app learns nothing,
/// and an app that has exited is woken through its socket when its accessory appears.
@Suite(.serialized) struct ObservePresenceServiceTests {
    static let acme = AppManifest(app: "acme", user: "nobody", wakeSocket: "acme-wake.socket", supports: [.bluetooth],
                                  bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])
    static let globex = AppManifest(app: "globex", user: "daemon", wakeSocket: "globex.socket", supports: [.bluetooth])
    static let address = "C0:FF:EE:00:00:50"
    static let grant = Grant(accessory: AccessoryID(0xA1), app: "acme", displayName: "Porch", state: .authorized,
                             bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress(address)!, addressType: .public))

    /// An app's session asking to be woken for `path`; the client prints the answer.
    static func observe(_ path: String) -> [[String]] {
        [["session"], ["call", "session", BusNames.session, Session1.observePresence.name, path, "true"]]
    }

    @Test func theWishIsDurableAndAnotherAppsAccessoryIsUnknown() throws {
        let h = try ServiceHarness(manifests: [Self.acme, Self.globex], grants: [Self.grant])
        let theirs = try h.runClient(Self.observe("/org/accessoryagent/accessory/00000000000000a1"), as: "daemon")
        let none = try h.runClient(Self.observe("/org/accessoryagent/accessory/00000000000000b2"), as: "daemon")
        #expect(theirs == "error org.accessoryagent.Error.invalidRequest\n")
        #expect(theirs == none)
        #expect(h.store.grants[AccessoryID(0xA1)]?.observesPresence == false)

        let own = try h.runClient(Self.observe("/org/accessoryagent/accessory/00000000000000a1"), as: "nobody")
        #expect(own == "ok\n")
        // On disk, as a restart (or a reboot) reads it.
        let reread = GrantStore(directory: h.directory)
        _ = try reread.load()
        #expect(reread.grants[AccessoryID(0xA1)]?.observesPresence == true)
    }

    @Test func anAppThatExitedIsWokenWhenItsAccessoryAppears() throws {
        let h = try ServiceHarness(manifests: [Self.acme], grants: [Self.grant])
        let socketPath = h.scratch.path("wake.sock")
        let listener = try WakeSocketListener.listen(at: socketPath)
        defer { close(listener) }
        // The harness's time, as the center's: the wake bound is counted on the clock the test moves.
        let waker = AppWaker(logger: h.log.logger, scheduler: h.scheduler,
                             apps: { AppManifestCatalog(manifests: ["acme": Self.acme]) },
                             appsWithSessions: { Set(h.service.openSessions.filter { $0.state == .active }.map(\.app)) },
                             resolve: { _, completion in completion(.success(socketPath)) })
        waker.isObserved = { id in h.service.center.core.grants[id]?.observesPresence == true }
        let deliver = h.service.center.notify
        h.service.center.notify = { notice in
            deliver(notice)
            waker.take(notice)
        }
        #expect(try h.runClient(Self.observe("/org/accessoryagent/accessory/00000000000000a1"), as: "nobody") == "ok\n")
        h.pump { h.service.openSessions.isEmpty }
        #expect(h.service.openSessions.isEmpty, "the app has exited")

        h.hear(Self.address, name: "Acme 50", service: 0x180F)
        h.scheduler.runDue()
        var notes: [String] = []
        h.pump { notes += WakeSocketListener.accepted(listener); return !notes.isEmpty }
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("ACCESSORY=/org/accessoryagent/accessory/00000000000000a1\nREASON=appeared\n") == true)
        #expect(h.log.values(of: "unit") == ["acme-wake.socket"])

        // Removed: it leaves, comes back long after the bound, and nobody is woken.
        try h.service.center.remove(AccessoryID(0xA1), app: "acme", by: .app("acme"))
        h.clock.advance(by: .seconds(3600))
        h.service.center.deadlineReached()
        h.hear(Self.address, name: "Acme 50", service: 0x180F)
        h.scheduler.runDue()
        // The loop's ready turns, waiting for nothing: a wake's note would be on its way by then.
        for _ in 0..<100 { guard h.loop.runOnce(timeout: .zero) else { break } }
        #expect(WakeSocketListener.accepted(listener).isEmpty)
    }
}
