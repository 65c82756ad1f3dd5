import AccessoryCore
import AccessoryPlatform
import Glibc
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// The waking adapter against a real listening unix socket, as systemd
/// holds one for an app's `.socket` unit: the note arrives on a connection
/// the "app" accepts; a socket nobody listens on is logged and backed off.
@Suite(.serialized) struct AppWakerTests {
    static let sensor = AccessoryID(0xA1)
    static let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "acme-wake.socket", supports: [.bluetooth])

    var grant: Grant {
        Grant(accessory: Self.sensor, app: "acme", displayName: "Porch", state: .authorized,
              bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress("AA:BB:CC:DD:EE:FF")!, addressType: .random),
              observesPresence: true)
    }

    func makeWaker(loop: EventLoop, log: RecordedLog, path: String, sessions: @escaping () -> Set<AppID> = { [] }) -> AppWaker {
        AppWaker(logger: log.logger, scheduler: loop,
                 apps: { AppManifestCatalog(manifests: ["acme": Self.manifest]) }, appsWithSessions: sessions,
                 resolve: { _, completion in completion(.success(path)) })
    }

    /// Runs the loop's turns that are ready now, waiting for nothing: a wake
    /// is carried out on the loop's next turn, so after this one that was due
    /// has happened, and a test sees that none was without spending time.
    func settle(_ loop: EventLoop) {
        for _ in 0..<100 { guard loop.runOnce(timeout: .zero) else { return } }
    }

    func run(_ loop: EventLoop, until done: () -> Bool) {
        for _ in 0..<50 where !done() { _ = loop.runOnce(timeout: .milliseconds(100)) }
    }

    @Test func anObservedAccessoryAppearingSendsTheNoteToTheAppsSocket() throws {
        let scratch = try ScratchDirectory("waker")
        let path = scratch.path("wake.sock")
        let listener = try WakeSocketListener.listen(at: path)
        defer { close(listener) }
        let loop = try EventLoop(pingsWatchdog: false)
        let log = RecordedLog()
        let waker = makeWaker(loop: loop, log: log, path: path)

        waker.take(.presence(grant, present: true, rssi: -60))
        waker.take(.advertisement(grant, rssi: -60, data: [0x02, 0x01, 0x06]))
        var notes: [String] = []
        run(loop) { notes += WakeSocketListener.accepted(listener); return !notes.isEmpty }
        #expect(notes == ["ACCESSORY=/org/accessoryagent/accessory/00000000000000a1\nREASON=appeared\nRSSI=-60\nADVERTISEMENT=020106\n"])
        #expect(log.values(of: MessageID.metadataKey) == [MessageID.appWoken.rawValue])
        #expect(log.values(of: "unit") == ["acme-wake.socket"])

        // Flapping: it leaves and comes back at once; the bound holds the next wake back.
        waker.take(.presence(grant, present: false, rssi: nil))
        waker.take(.presence(grant, present: true, rssi: -60))
        settle(loop)
        #expect(WakeSocketListener.accepted(listener).isEmpty)
    }

    @Test func noWakeWithoutTheWishOrWithASessionOrAfterRemoval() throws {
        let scratch = try ScratchDirectory("waker")
        let path = scratch.path("wake.sock")
        let listener = try WakeSocketListener.listen(at: path)
        defer { close(listener) }
        let loop = try EventLoop(pingsWatchdog: false)
        let log = RecordedLog()
        var unobserved = grant
        unobserved.observesPresence = false
        let wakers = (0..<3).map { n in makeWaker(loop: loop, log: log, path: path, sessions: { n == 1 ? ["acme"] : [] }) }
        wakers[0].take(.presence(unobserved, present: true, rssi: nil))
        wakers[1].take(.presence(grant, present: true, rssi: nil))
        // Removed while a wake waits for the loop's next turn: the machine forgets it.
        wakers[2].take(.app("acme", .accessoryRemoved(Self.sensor)))
        settle(loop)
        #expect(WakeSocketListener.accepted(listener).isEmpty)
        #expect(log.values(of: MessageID.metadataKey).isEmpty)
        withExtendedLifetime(wakers) {}
    }

    @Test func aSocketNobodyListensOnIsLoggedAndBackedOff() throws {
        let scratch = try ScratchDirectory("waker")
        let loop = try EventLoop(pingsWatchdog: false)
        let log = RecordedLog()
        let waker = makeWaker(loop: loop, log: log, path: scratch.path("gone.sock"))
        waker.take(.presence(grant, present: true, rssi: nil))
        run(loop) { !log.values(of: MessageID.metadataKey).isEmpty }
        #expect(log.values(of: MessageID.metadataKey) == [MessageID.appWakeFailed.rawValue])
        #expect(log.values(of: "error").first?.contains("connect(") == true)
        #expect(log.values(of: "wake.failures") == ["1"])
    }
}
