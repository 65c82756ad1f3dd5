import AccessoryCore
import AccessoryDecisions
import AccessoryRadios
import Logging
import Synchronization
import Testing
import TestSupport
@testable import AccessoryDaemon

/// A bonded accessory that rotates its resolvable private address stays one
/// accessory: its grant's, present, its advertisements delivered to its app,
/// under its identity address. In process: the bond store and the grant
/// store in a scratch directory, the authorization center over the discovery
/// pipeline as the daemon wires them, reports through the HCI intake, the
/// real AES (Nettle) counted, a manual scheduler.
@Suite struct IdentityAcrossRotationTests {
    final class Count: Sendable {
        let blocks = Atomic<Int>(0)
        var value: Int { blocks.load(ordering: .relaxed) }
    }

    struct CountingCipher: AES128Cipher {
        let count: Count
        func encryptor(key: AES128Block) -> any AES128Encryptor {
            Counting(real: NettleAES128().encryptor(key: key), count: count)
        }
        struct Counting: AES128Encryptor {
            let real: any AES128Encryptor
            let count: Count
            func encrypt(_ block: AES128Block) -> AES128Block {
                count.blocks.add(1, ordering: .relaxed)
                return real.encrypt(block)
            }
        }
    }

    static let sensor = AccessoryID(0xD1)
    static let lock = AccessoryID(0xD2)
    static let sensorIdentity = BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:61")!, addressType: .public)
    static let lockIdentity = BluetoothDeviceIdentifier(address: HardwareAddress("C0:FF:EE:00:00:62")!, addressType: .public)
    static func irk(_ n: UInt64) -> SecurityKey { SecurityKey(AES128Block(high: 0xEC02_34A3_57C8_AD05, low: n)) }
    static let sensorIRK = irk(1)
    static let lockIRK = irk(2)
    static let strangerIRK = irk(3)

    /// The address a holder of `irk` makes from `prand`.
    static func rpa(_ irk: SecurityKey, _ prand: UInt32) -> BluetoothDeviceIdentifier {
        ResolvablePrivateAddress(prand: prand, key: NettleAES128().encryptor(key: irk.value)).device
    }

    final class World {
        let scratch: ScratchDirectory
        let scheduler = ManualScheduler()
        let count = Count()
        let pipeline: DiscoveryPipeline
        let ingest: AdvertisingReportIngest
        let center: AuthorizationCenter
        let bonds: BondStore
        var notices: [AuthorizationNotice] = []

        init(grants: [Grant], bonds: [Bond]) throws {
            scratch = try ScratchDirectory("identity")
            let store = GrantStore(directory: scratch.path)
            for grant in grants { try store.save(grant) }
            self.bonds = BondStore(directory: scratch.path)
            for bond in bonds { try self.bonds.save(bond) }
            pipeline = DiscoveryPipeline(clock: scheduler, identityCipher: CountingCipher(count: count))
            ingest = AdvertisingReportIngest(pipeline: pipeline)
            let logger = Logger(label: "accessoryd") { _ in SwiftLogNoOpLogHandler() }
            BondedIdentities.follow(self.bonds, into: pipeline, logger: logger)
            center = AuthorizationCenter(store: store, pipeline: pipeline, logger: logger, scheduler: scheduler)
            center.notify = { [unowned self] in notices.append($0) }
        }

        /// One LE Advertising Report from `device`: flags, a name, the battery service and a reading.
        func hear(_ device: BluetoothDeviceIdentifier, reading: UInt8) {
            let name = Array("Acme Sensor".utf8)
            let payload: [UInt8] = [2, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
                + [3, 0x03, 0x0F, 0x18] + [4, 0x16, 0x0F, 0x18, reading]
            let address = (0..<6).map { UInt8(truncatingIfNeeded: device.address.rawValue >> UInt64(8 * $0)) }
            let parameters: [UInt8] = [0x02, 0x01, 0x00, device.addressType.rawValue] + address
                + [UInt8(payload.count), ] + payload + [UInt8(bitPattern: -50)]
            ingest.ingest(event: [0x3E, UInt8(parameters.count)] + parameters, controller: 0)
        }

        /// Block encryptions `work` cost.
        func blocks(_ work: () -> Void) -> Int {
            let before = count.value
            work()
            return count.value - before
        }

        /// The advertisements delivered, as (grant's address, last octet of the data).
        var advertisements: [(BluetoothDeviceIdentifier?, UInt8?)] {
            notices.compactMap {
                if case .advertisement(let grant, _, let data) = $0 { (grant.bluetooth, data.last) } else { nil }
            }
        }

        var presence: [(AccessoryID, Bool)] {
            notices.compactMap {
                if case .presence(let grant, let present, _) = $0 { (grant.accessory, present) } else { nil }
            }
        }
    }

    static func grant(_ id: AccessoryID, app: String, at identity: BluetoothDeviceIdentifier) -> Grant {
        Grant(accessory: id, app: AppID(app), displayName: "Acme \(id)", state: .authorized, bluetooth: identity)
    }

    func world(bonded: Bool = true) throws -> World {
        try World(
            grants: [Self.grant(Self.sensor, app: "acme", at: Self.sensorIdentity),
                     Self.grant(Self.lock, app: "other", at: Self.lockIdentity)],
            bonds: bonded ? [Bond(accessory: Self.sensor, identity: Self.sensorIdentity, irk: Self.sensorIRK),
                             Bond(accessory: Self.lock, identity: Self.lockIdentity, irk: Self.lockIRK)] : [])
    }

    @Test func threeSuccessiveAddressesAreOneAccessoryPresentUnderItsIdentity() throws {
        let w = try world()
        let addresses = [0x11_2233, 0x21_2233, 0x31_2233].map { Self.rpa(Self.sensorIRK, $0) }
        #expect(Set(addresses).count == 3)
        // Twice a second, a new address every 5 s: no gap at a rotation.
        for (rotation, address) in addresses.enumerated() {
            for _ in 0..<10 {
                w.hear(address, reading: UInt8(rotation))
                w.scheduler.advance(by: .milliseconds(500))
            }
            #expect(w.center.isPresent(Self.sensor), "present at rotation \(rotation)")
            #expect(w.pipeline.currentAddress(of: Self.sensorIdentity) == address, "a connect goes to the address heard last")
        }
        #expect(w.presence.map(\.0) == [Self.sensor] && w.presence.map(\.1) == [true], "one appearance, no loss")
        #expect(w.advertisements.map(\.0) == Array(repeating: Self.sensorIdentity, count: 3))
        #expect(w.advertisements.map(\.1) == [0, 1, 2], "each rotation's reading, delivered once")
        #expect(w.pipeline.registry[.bluetooth(Self.sensorIdentity)] != nil)
        #expect(addresses.allSatisfy { w.pipeline.registry[.bluetooth($0)] == nil }, "no device under a private address")
        #expect(w.pipeline.registry[.bluetooth(Self.sensorIdentity)]?.advertisement?.device == Self.sensorIdentity)
    }

    @Test func aStrangersAddressMatchesNoOtherAppsGrant() throws {
        let w = try world()
        // The same advertisement as the lock's and the sensor's, from an IRK nobody bonded.
        w.hear(Self.rpa(Self.strangerIRK, 0x11_2233), reading: 7)
        w.hear(Self.rpa(Self.strangerIRK, 0x21_2233), reading: 7)
        #expect(!w.center.isPresent(Self.lock) && !w.center.isPresent(Self.sensor))
        #expect(w.notices.isEmpty)
        // The sensor's address is the sensor's, not the lock's.
        w.hear(Self.rpa(Self.sensorIRK, 0x11_2233), reading: 7)
        #expect(w.center.isPresent(Self.sensor) && !w.center.isPresent(Self.lock))
        #expect(!w.presence.contains { $0.0 == Self.lock })
    }

    @Test func aKnownAddressCostsNoAES() throws {
        let w = try world()
        let address = Self.rpa(Self.sensorIRK, 0x11_2233)
        let stranger = Self.rpa(Self.strangerIRK, 0x11_2233)
        let first = w.blocks { w.hear(address, reading: 1) }
        #expect(first >= 1 && first <= 2, "at most one pass over the two IRKs")
        let strangerFirst = w.blocks { w.hear(stranger, reading: 1) }
        #expect(strangerFirst == 2, "one pass over the two IRKs")
        // Repeats (the intake's fast path) and changes (parsed and matched again) alike.
        let known = w.blocks {
            for reading in 0..<20 {
                w.hear(address, reading: UInt8(reading % 2))
                w.hear(stranger, reading: UInt8(reading % 2))
            }
        }
        #expect(known == 0)
        // A public address is never looked at.
        #expect(w.blocks { w.hear(Self.sensorIdentity, reading: 1) } == 0)
    }

    @Test func aBondStoredWhileRunningResolvesFromTheNextReportAndItsRemovalStopsIt() throws {
        let w = try world(bonded: false)
        let before = Self.rpa(Self.sensorIRK, 0x11_2233)
        w.hear(before, reading: 1)
        #expect(!w.center.isPresent(Self.sensor))
        #expect(w.pipeline.registry[.bluetooth(before)] != nil, "a stranger, its own device")
        // What pairing does once it has the keys.
        try w.bonds.save(Bond(accessory: Self.sensor, identity: Self.sensorIdentity, irk: Self.sensorIRK))
        w.hear(before, reading: 2)
        #expect(w.center.isPresent(Self.sensor), "the address a stranger before is the sensor now")
        try w.bonds.remove(Self.sensor)
        let after = Self.rpa(Self.sensorIRK, 0x21_2233)
        w.hear(after, reading: 3)
        #expect(w.pipeline.registry[.bluetooth(after)] != nil, "no longer resolved")
        #expect(w.pipeline.currentAddress(of: Self.sensorIdentity) == Self.sensorIdentity)
    }
}
