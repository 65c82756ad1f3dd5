import AccessoryCore
import AccessoryDecisions
import Logging
import Testing
import TestSupport
@testable import AccessoryDaemon

/// A granted accessory is present while heard, and absent once silent for
/// longer than its own advertising interval allows: the registry's rule,
/// not one window for every device. In process: the authorization center
/// over the discovery pipeline and a grant store in a scratch directory,
/// on a manual scheduler; no bus is involved in the rule.
@Suite struct GrantPresenceTests {
    static let id = AccessoryID(0xC1)
    static let address = "C0:FF:EE:00:00:50"

    /// The center as the daemon wires it, without the bus.
    final class World {
        let scratch: ScratchDirectory
        let scheduler = ManualScheduler()
        let pipeline: DiscoveryPipeline
        let center: AuthorizationCenter

        init(grants: [Grant]) throws {
            scratch = try ScratchDirectory("presence")
            let store = GrantStore(directory: scratch.path)
            for grant in grants { try store.save(grant) }
            pipeline = DiscoveryPipeline(clock: scheduler)
            center = AuthorizationCenter(
                store: store, pipeline: pipeline, logger: Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() },
                scheduler: scheduler)
        }

        func hear(_ address: String, name: String, service: UInt16) {
            let device = BluetoothDeviceIdentifier(address: HardwareAddress(address)!, addressType: .public)
            let nameBytes = Array(name.utf8)
            let raw: [UInt8] = [2, 0x01, 0x06, UInt8(nameBytes.count + 1), 0x09] + nameBytes
                + [3, 0x03, UInt8(service & 0xFF), UInt8(service >> 8)]
            pipeline.record(Advertisement(
                device: device, properties: [.connectable], rssi: -50,
                data: AdvertisingData(flags: 6, completeLocalName: nameBytes, completeServiceUUIDs: [BluetoothUUID(uuid16: service)]),
                rawAdvertisingData: raw))
        }
    }

    func world() throws -> World {
        let grant = Grant(accessory: Self.id, app: "acme", displayName: "Porch", state: .authorized,
                          bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress(Self.address)!, addressType: .public))
        return try World(grants: [grant])
    }

    /// Hears the accessory `count` times, `gap` apart.
    func hear(_ w: World, count: Int, every gap: Duration) {
        for index in 0..<count {
            if index > 0 { w.scheduler.advance(by: gap) }
            w.hear(Self.address, name: "Acme 50", service: 0x180F)
        }
    }

    /// Lets `silence` pass (the center's deadline fires on the way, as on the loop); whether it is still present.
    func wait(_ w: World, _ silence: Duration) -> Bool {
        w.scheduler.advance(by: silence)
        return w.center.isPresent(Self.id)
    }

    @Test func aSensorThatWakesEveryTwentySecondsStaysPresentBetweenWakeUps() throws {
        let w = try world()
        #expect(!w.center.isPresent(Self.id))
        hear(w, count: 4, every: .seconds(20))
        #expect(w.center.isPresent(Self.id))
        // 45 s without a word is ordinary for it: three intervals are 60 s.
        #expect(wait(w, .seconds(45)))
        #expect(!wait(w, .seconds(16)))
    }

    @Test func theAppIsToldOfTheAbsenceWhenTheLearnedIntervalSaysNotAtTheFirstGuess() throws {
        let w = try world()
        var toldAbsentAt: Duration?
        let start = w.scheduler.now
        w.center.notify = { notice in
            if case .presence(_, present: false, _) = notice { toldAbsentAt = w.scheduler.now.duration(since: start) }
        }
        // A beacon twice a second: the timer armed at its appearance (the unlearned default)
        // is far later than three learned intervals (the registry's 3 s floor).
        hear(w, count: 20, every: .milliseconds(500))
        #expect(!wait(w, .seconds(5)))
        #expect(toldAbsentAt != nil, "absent for the registry, so the app is told by now")
        #expect(toldAbsentAt.map { $0 <= .milliseconds(9_500) + .seconds(3) } == true, "told when the silence ran out")
    }

    @Test func whenItWasLastHeardCountsOnAfterItLeaves() throws {
        let w = try world()
        #expect(w.center.secondsSinceHeard(Self.id) == nil, "not heard since the start")
        hear(w, count: 4, every: .seconds(20))
        #expect(w.center.secondsSinceHeard(Self.id) == 0)
        #expect(!wait(w, .seconds(61)))
        #expect(w.center.secondsSinceHeard(Self.id) == 61, "absent, and still known when it was last heard")
    }

    @Test func aBeaconHeardTenTimesASecondIsMissedWithinSeconds() throws {
        let w = try world()
        hear(w, count: 10, every: .milliseconds(100))
        #expect(wait(w, .seconds(2)))
        // Three intervals are 300 ms; the registry's floor is 3 s.
        #expect(!wait(w, .seconds(2)))
    }

    @Test func untilAnIntervalIsLearnedTheRegistrysDefaultApplies() throws {
        let w = try world()
        hear(w, count: 1, every: .zero)
        let unlearned = w.pipeline.registry.configuration.unlearnedTimeout
        #expect(wait(w, unlearned - .seconds(1)))
        #expect(!wait(w, .seconds(2)))
        // Heard again: present again.
        hear(w, count: 1, every: .zero)
        #expect(w.center.isPresent(Self.id))
    }

    @Test func aGrantedWiFiAccessoryKeepsWiFiScannedUntilItIsRemoved() throws {
        let camera = Grant(accessory: AccessoryID(0xC2), app: "acme", displayName: "Camera", state: .authorized,
                           ssid: SSID("ACME-Cam"))
        let w = try World(grants: [camera])
        // Without a request, the grant alone: its presence needs scans.
        #expect(w.center.wantsWiFiScans)
        var told: [Bool] = []
        w.center.demandChanged = { demand in told.append(demand.wifi) }
        // What Admin1's RemoveAccessory (accessoryctl remove) asks of the center.
        try w.center.remove(AccessoryID(0xC2), app: nil, by: .administrator(uid: 0, name: "root"))
        #expect(!w.center.wantsWiFiScans)
        #expect(told.last == false)
    }

    @Test func aBluetoothGrantAloneWantsNoWiFiScans() throws {
        #expect(try !world().center.wantsWiFiScans)
    }
}
