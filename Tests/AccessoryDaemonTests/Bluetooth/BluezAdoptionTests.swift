import AccessoryCore
import AccessoryDecisions
import AccessoryPlatform
import Foundation
import Logging
import Testing
import TestSupport

@testable import AccessoryDaemon

/// Which outcome a migrated item gets from its request's lookup: the table.
@Suite struct MigrationBondAdoptionTests {
    let lock = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:55")!, addressType: .public)
    let other = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:66")!, addressType: .public)

    @Test func outcomes() {
        typealias A = MigrationBondAdoption
        #expect(A.outcome(for: lock, lookup: .answered(.bonded([lock])), keeperPresent: true) == .adopt)
        #expect(A.outcome(for: other, lookup: .answered(.bonded([lock])), keeperPresent: true) == .notBonded)
        #expect(A.outcome(for: lock, lookup: nil, keeperPresent: false) == .noKeeper)
        #expect(A.outcome(for: lock, lookup: .answered(.failed("no answer")), keeperPresent: true) == .unknown("no answer"))
        #expect(A.outcome(for: lock, lookup: .asking, keeperPresent: true) == .unknown("bluetoothd has not answered yet"))
        // bluetoothd gone since it answered: nobody to keep the bond it named.
        #expect(A.outcome(for: lock, lookup: .answered(.bonded([lock])), keeperPresent: false) == .unknown("bluetoothd is not running now"))
        #expect(A.outcome(for: lock, lookup: nil, keeperPresent: true)
                == .unknown("bluetoothd was not running when the migration was asked for"))
    }
}

/// Adoption against a real dbus-daemon with a stand-in bluetoothd of the
/// test's own: GetManagedObjects as BlueZ 5.66 answers it (or an error, or
/// nothing at all), RemoveDevice. The back end's time box and the
/// authorization center run on the manual scheduler; the bus on a real loop.
@Suite("Adopting bluetoothd's bonds for a migration", .serialized)
final class BluezAdoptionBusTests {
    struct Listed {
        var path: String
        var address: String
        var type: String? = "public"
        var paired = true
        var bonded: Bool? = true
    }

    enum Answer { case list, error(String), silent }

    static let lock = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:55")!, addressType: .public)
    static let stranger = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:77")!, addressType: .public)
    /// bluetoothd keeps the path a device was first seen at: the lock's private address then.
    static let lockPath = "/org/bluez/hci0/dev_4A_11_22_33_44_55"

    let bus: PrivateBus
    let scratch: ScratchDirectory
    let loop: EventLoop
    let connection: BusConnection
    let bluez: BusConnection
    let scheduler = ManualScheduler()
    let log = RecordedLog()
    let pairing: BluezPairing
    var listed = [Listed(path: lockPath, address: "C0:11:22:33:44:55"),
                  Listed(path: "/org/bluez/hci0/dev_C0_11_22_33_44_77", address: "C0:11:22:33:44:77", paired: false, bonded: false)]
    var answer = Answer.list
    var calls: [String] = []
    /// Calls the stand-in never answers (`Answer.silent`), kept so that they stay unanswered.
    var unanswered: [BusMessage] = []

    init() throws {
        bus = try PrivateBus()
        scratch = try ScratchDirectory("bluez-adoption")
        loop = try EventLoop(pingsWatchdog: false)
        connection = try BusConnection(address: bus.address, loop: loop)
        bluez = try BusConnection(address: bus.address, loop: loop)
        try bluez.requestName("org.bluez")
        pairing = BluezPairing(bus: connection, scheduler: scheduler, store: BondStore(directory: scratch.path("state")),
                               logger: log.logger, controllers: { [0] })
        pairing.bluetoothd(present: true)
        try bluez.serve(path: "/", subtree: true) { [unowned self] call, bus in standIn(call, bus) }
    }

    private func standIn(_ call: BusMessage, _ bus: BusConnection) -> BusConnection.MethodOutcome? {
        let member = call.member ?? ""
        calls.append(member == "RemoveDevice" ? "RemoveDevice \((try? call.readObjectPath()) ?? "")" : member)
        guard member == "GetManagedObjects" else { return .reply(bus.reply(to: call)!) }
        switch answer {
        case .error(let name): return .error(BusError(name: name, message: "stand-in"))
        case .silent:
            unanswered.append(call)
            return .deferred
        case .list: break
        }
        let reply = bus.reply(to: call)!
        reply.container("a", "{oa{sa{sv}}}") { objects in
            // The adapter has an Address too: only Device1 objects count.
            objects.container("e", "oa{sa{sv}}") { entry in
                entry.append(objectPath: "/org/bluez/hci0").container("a", "{sa{sv}}") { interfaces in
                    interfaces.container("e", "sa{sv}") { interface in
                        interface.append("org.bluez.Adapter1").container("a", "{sv}") { properties in
                            properties.container("e", "sv") { $0.append("Address").append(variant: .string("C0:11:22:33:44:55")) }
                        }
                    }
                }
            }
            for device in listed {
                objects.container("e", "oa{sa{sv}}") { entry in
                    entry.append(objectPath: device.path).container("a", "{sa{sv}}") { interfaces in
                        interfaces.container("e", "sa{sv}") { $0.append("org.freedesktop.DBus.Properties").container("a", "{sv}") { _ in } }
                        interfaces.container("e", "sa{sv}") { interface in
                            interface.append("org.bluez.Device1").container("a", "{sv}") { properties in
                                properties.container("e", "sv") { $0.append("Address").append(variant: .string(device.address)) }
                                if let type = device.type {
                                    properties.container("e", "sv") { $0.append("AddressType").append(variant: .string(type)) }
                                }
                                properties.container("e", "sv") { $0.append("Name").append(variant: .string("Lab Sensor")) }
                                properties.container("e", "sv") { $0.append("Paired").append(variant: .bool(device.paired)) }
                                if let bonded = device.bonded {
                                    properties.container("e", "sv") { $0.append("Bonded").append(variant: .bool(bonded)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return .reply(reply)
    }

    private func run(until done: () -> Bool) {
        for _ in 0..<200 where !done() { _ = loop.runOnce(timeout: .seconds(1)) }
    }

    private func lookUp(_ devices: Set<BluetoothDeviceIdentifier>) -> BondLookupAnswer? {
        var answers: [BondLookupAnswer] = []
        pairing.lookUpBonds(of: devices) { answers.append($0) }
        run { !answers.isEmpty }
        #expect(answers.count <= 1)
        return answers.first
    }

    // MARK: The back end's question

    @Test("a device bluetoothd keeps bonded is named; one paired without bonding, or not asked about, is not")
    func bondedDevices() {
        #expect(lookUp([Self.lock, Self.stranger]) == .bonded([Self.lock]))
        #expect(calls == ["GetManagedObjects"])
    }

    @Test("only Device1 objects of the controllers accessoryd shares, matched by address and address type")
    func matching() {
        let random = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:88")!, addressType: .random)
        let older = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:99")!, addressType: .public)
        let elsewhere = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:AA")!, addressType: .public)
        let untyped = BluetoothDeviceIdentifier(address: BluetoothAddress("C0:11:22:33:44:BB")!, addressType: .public)
        listed = [
            // The same address as a random one: not the lock, which is public.
            Listed(path: "/org/bluez/hci0/dev_C0_11_22_33_44_55", address: "C0:11:22:33:44:55", type: "random"),
            Listed(path: "/org/bluez/hci0/dev_C0_11_22_33_44_88", address: "C0:11:22:33:44:88", type: "random"),
            // A BlueZ without the Bonded property: Paired is what it has.
            Listed(path: "/org/bluez/hci0/dev_C0_11_22_33_44_99", address: "C0:11:22:33:44:99", bonded: nil),
            // Bonded on a controller accessoryd does not share.
            Listed(path: "/org/bluez/hci1/dev_C0_11_22_33_44_AA", address: "C0:11:22:33:44:AA"),
            // No AddressType, or a path that is not bluetoothd's form: left out.
            Listed(path: "/org/bluez/hci0/dev_C0_11_22_33_44_BB", address: "C0:11:22:33:44:BB", type: nil),
            Listed(path: "/org/bluez/hci0/dev_c0_11_22_33_44_bb", address: "C0:11:22:33:44:BB"),
        ]
        #expect(lookUp([Self.lock, random, older, elsewhere, untyped]) == .bonded([random, older]))
    }

    @Test("bluetoothd's error is the answer, by name")
    func error() {
        answer = .error("org.bluez.Error.Failed")
        #expect(lookUp([Self.lock]) == .failed("bluetoothd's GetManagedObjects failed: \"org.bluez.Error.Failed\""))
    }

    @Test("no answer: the time box answers, once, on the scheduler")
    func silent() {
        answer = .silent
        var answers: [BondLookupAnswer] = []
        pairing.lookUpBonds(of: [Self.lock]) { answers.append($0) }
        run { calls == ["GetManagedObjects"] }
        #expect(answers.isEmpty)
        scheduler.advance(by: BluezPairing.lookupTimeout - .milliseconds(1))
        #expect(answers.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(answers == [.failed("bluetoothd did not answer within 5 s")])
        #expect(scheduler.pending == 0)
    }

    @Test("without bluetoothd the answer says so, on a later turn")
    func noBluetoothd() {
        pairing.bluetoothd(present: false)
        var answers: [BondLookupAnswer] = []
        pairing.lookUpBonds(of: [Self.lock]) { answers.append($0) }
        #expect(answers.isEmpty)
        scheduler.advance(by: .zero)
        #expect(answers == [.failed("bluetoothd is not running")])
        #expect(calls.isEmpty)
    }

    // MARK: Through the authorization center

    static let manifest = AppManifest(app: "acme", supports: [.bluetooth], bluetoothServiceUUIDs: [BluetoothUUID(uuid16: 0x180F)])
    static let items = [MigrationItem(name: "Front Door", identity: .bluetooth(lock), descriptor: DiscoveryDescriptor()),
                        MigrationItem(name: "Hall Sensor", identity: .bluetooth(stranger), descriptor: DiscoveryDescriptor())]
    static let administrator = Decider.administrator(uid: 0, name: "root")

    private func center(backEnd: Bool = true) -> AuthorizationCenter {
        let center = AuthorizationCenter(store: GrantStore(directory: scratch.path("state")), pipeline: DiscoveryPipeline(clock: scheduler),
                                         logger: log.logger, scheduler: scheduler)
        if backEnd { center.pairingBackEnd = pairing }
        return center
    }

    private func grant(of device: BluetoothDeviceIdentifier, in center: AuthorizationCenter) -> AccessoryID? {
        center.allGrants.values.first { $0.bluetooth == device }?.accessory
    }

    @Test("asked when the migration is asked for; at approval the bonded item's grant gets bluetoothd's record, and its removal removes bluetoothd's device")
    func adopted() throws {
        let center = center()
        let number = try center.migrate(session: 1, manifest: Self.manifest, items: Self.items)
        run { center.bondLookups[number] != .asking }
        #expect(center.bondLookups[number] == .answered(.bonded([Self.lock])))
        let granted = try center.approve(number, candidate: 0, name: nil, by: Self.administrator)
        #expect(granted.count == 2)
        let lock = try #require(grant(of: Self.lock, in: center))
        let hall = try #require(grant(of: Self.stranger, in: center))
        // bluetoothd keeps the keys; no IRK comes over D-Bus.
        let record = Bond(accessory: lock, identity: Self.lock, keeper: .bluetoothd)
        #expect(pairing.bonds == [lock: record])
        #expect(BondStore(directory: scratch.path("state")).bonds == [lock: record])
        #expect(pairing.requiredSecurity(for: lock) == .medium)
        #expect(pairing.requiredSecurity(for: hall) == nil)
        #expect(!pairing.kernelResolves(Self.lock))
        #expect(center.bondLookups.isEmpty)

        let adoptedLine = try #require(log.entries.first { $0.metadata[MessageID.metadataKey].map { "\($0)" } == MessageID.bondAdopted.rawValue })
        #expect(adoptedLine.level == .notice)
        #expect(adoptedLine.message == "Bond adopted from bluetoothd for accessory \(lock) (\(Self.lock)) of acme")
        #expect(log.entries.contains { $0.level == .debug && $0.message == "bluetoothd keeps no bond of \(Self.stranger): accessory \(hall) migrated without one" })
        #expect(!log.entries.contains { $0.level >= .warning })

        try center.remove(lock, app: nil, by: Self.administrator)
        run { calls.contains { $0.hasPrefix("RemoveDevice") } }
        #expect(calls.suffix(2) == ["GetManagedObjects", "RemoveDevice \(Self.lockPath)"])
        #expect(pairing.bonds.isEmpty)
        // The other accessory had no record: its removal asks nothing of bluetoothd.
        try center.remove(hall, app: nil, by: Self.administrator)
        #expect(calls.filter { $0.hasPrefix("RemoveDevice") }.count == 1)
    }

    @Test("bluetoothd's error: granted without a record, said at warning")
    func adoptionError() throws {
        answer = .error("org.bluez.Error.Failed")
        let center = center()
        let number = try center.migrate(session: 1, manifest: Self.manifest, items: Self.items)
        run { center.bondLookups[number] != .asking }
        let granted = try center.approve(number, candidate: 0, name: nil, by: Self.administrator)
        #expect(granted.count == 2)
        #expect(pairing.bonds.isEmpty)
        let warnings = log.entries.filter { $0.level == .warning }.map(\.message)
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0.contains("(bluetoothd's GetManagedObjects failed: \"org.bluez.Error.Failed\")") })
    }

    @Test("no answer within the time box, or none yet at approval: the grant does not wait, and has no record")
    func adoptionTimeout() throws {
        answer = .silent
        let center = center()
        let first = try center.migrate(session: 1, manifest: Self.manifest, items: [Self.items[0]])
        run { calls == ["GetManagedObjects"] }
        scheduler.advance(by: BluezPairing.lookupTimeout)
        #expect(center.bondLookups[first] == .answered(.failed("bluetoothd did not answer within 5 s")))
        #expect(try center.approve(first, candidate: 0, name: nil, by: Self.administrator).count == 1)
        #expect(pairing.bonds.isEmpty)
        #expect(log.entries.contains { $0.level == .warning && $0.message.contains("(bluetoothd did not answer within 5 s)") })

        // Approved before bluetoothd answered: granted at once, without the record.
        let second = try center.migrate(session: 2, manifest: AppManifest(app: "other", supports: [.bluetooth]), items: [Self.items[1]])
        run { calls.count == 2 }
        #expect(center.bondLookups[second] == .asking)
        #expect(try center.approve(second, candidate: 0, name: nil, by: Self.administrator).count == 1)
        #expect(log.entries.contains { $0.level == .warning && $0.message.contains("(bluetoothd has not answered yet)") })
        // The time box still ends the lookup; its answer finds no request and changes nothing.
        scheduler.advance(by: BluezPairing.lookupTimeout)
        #expect(pairing.bonds.isEmpty)
        #expect(center.bondLookups.isEmpty)
    }

    @Test("no bluetoothd: nothing is asked, the migration grants as before, said at debug")
    func withoutBluetoothd() throws {
        let center = center(backEnd: false)
        let number = try center.migrate(session: 1, manifest: Self.manifest, items: [Self.items[0]])
        #expect(center.bondLookups.isEmpty)
        let granted = try center.approve(number, candidate: 0, name: nil, by: Self.administrator)
        #expect(granted.count == 1)
        #expect(calls.isEmpty)
        #expect(pairing.bonds.isEmpty)
        #expect(log.entries.contains { $0.level == .debug && $0.message == "No bluetoothd: accessory \(granted[0]) (\(Self.lock)) migrated without adopting a bond" })
    }
}

extension MigrationBondAdoptionTests {
    @Test func answersAreSaidInWords() {
        #expect("\(BondLookupAnswer.bonded([]))" == "it keeps no bond of them")
        #expect("\(BondLookupAnswer.bonded([other, lock]))" == "it keeps the bond of C0:11:22:33:44:55/public, C0:11:22:33:44:66/public")
        #expect("\(BondLookupAnswer.failed("no answer"))" == "no answer")
    }
}
