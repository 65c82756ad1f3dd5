import AccessoryCore
import Foundation
import Synchronization
import Testing
@testable import AccessoryDaemon

/// A granted accessory is present while heard, and absent once silent for
/// longer than its own advertising interval allows: the registry's rule,
/// not one window for every device.
@Suite struct GrantPresenceTests {
    static let app = AppManifest(app: "acme", user: "nobody", supports: [.bluetooth], bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])
    static let id = AccessoryID(0xC1)
    static let address = "C0:FF:EE:00:00:50"

    func harness() throws -> ServiceHarness {
        let grant = Grant(accessory: Self.id, app: "acme", displayName: "Porch", state: .authorized,
                          bluetooth: BluetoothDeviceIdentifier(address: HardwareAddress(Self.address)!, addressType: .public))
        return try ServiceHarness(manifests: [Self.app], grants: [grant])
    }

    /// Hears the accessory `count` times, `gap` apart.
    func hear(_ h: ServiceHarness, count: Int, every gap: Duration) {
        for index in 0..<count {
            if index > 0 { h.clock.advance(by: gap) }
            h.hear(Self.address, name: "Acme 50", service: 0x180F)
        }
    }

    func wait(_ h: ServiceHarness, _ silence: Duration) -> Bool {
        h.clock.advance(by: silence)
        h.service.center.deadlineReached()
        return h.service.center.isPresent(Self.id)
    }

    @Test func aSensorThatWakesEveryTwentySecondsStaysPresentBetweenWakeUps() throws {
        let h = try harness()
        #expect(!h.service.center.isPresent(Self.id))
        hear(h, count: 4, every: .seconds(20))
        #expect(h.service.center.isPresent(Self.id))
        // 45 s without a word is ordinary for it: three intervals are 60 s.
        #expect(wait(h, .seconds(45)))
        #expect(!wait(h, .seconds(16)))
    }

    @Test func aBeaconHeardTenTimesASecondIsMissedWithinSeconds() throws {
        let h = try harness()
        hear(h, count: 10, every: .milliseconds(100))
        #expect(wait(h, .seconds(2)))
        // Three intervals are 300 ms; the registry's floor is 3 s.
        #expect(!wait(h, .seconds(2)))
    }

    @Test func untilAnIntervalIsLearnedTheRegistrysDefaultApplies() throws {
        let h = try harness()
        hear(h, count: 1, every: .zero)
        let unlearned = h.pipeline.registry.configuration.unlearnedTimeout
        #expect(wait(h, unlearned - .seconds(1)))
        #expect(!wait(h, .seconds(2)))
        // Heard again: present again.
        hear(h, count: 1, every: .zero)
        #expect(h.service.center.isPresent(Self.id))
    }

    @Test func aGrantedWiFiAccessoryKeepsWiFiScannedUntilItIsRemoved() throws {
        let wifiApp = AppManifest(app: "acme", user: "nobody", supports: [.wifi], ssidPrefixes: [Array("ACME-".utf8)])
        let camera = Grant(accessory: AccessoryID(0xC2), app: "acme", displayName: "Camera", state: .authorized,
                           ssid: SSID("ACME-Cam"))
        let h = try ServiceHarness(manifests: [wifiApp], grants: [camera])
        // Without a request, the grant alone: its presence needs scans.
        #expect(h.service.center.wantsWiFiScans)
        let told = Mutex<[Bool]>([])
        h.service.center.demandChanged = { demand in told.withLock { $0.append(demand.wifi) } }
        #expect(try h.accessoryctl(["remove", "00000000000000c2"]).status == 0)
        #expect(!h.service.center.wantsWiFiScans)
        #expect(told.withLock { $0.last } == false)
    }

    @Test func aBluetoothGrantAloneWantsNoWiFiScans() throws {
        #expect(try !harness().service.center.wantsWiFiScans)
    }
}
