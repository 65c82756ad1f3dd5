import AccessoryCodecs
import AccessoryCore
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

@Suite struct BondStoreTests {
    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("bonds")
    }

    let bond = Bond(
        accessory: AccessoryID(7),
        identity: BluetoothDeviceIdentifier(address: HardwareAddress("C0:11:22:33:44:55")!, addressType: .random),
        irk: SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b"),
        ltk: LongTermKey(key: SecurityKey(hex: "bf01fb9d4ef3bc36d874f5394138684c")!, authenticated: true, secureConnections: true))

    @Test func savedBondsAreThereAfterAReloadInAFileOnlyItsOwnerReads() throws {
        let store = BondStore(directory: directory)
        #expect(try store.load() == .empty)
        try store.save(bond)
        var other = bond
        other.accessory = AccessoryID(8)
        other.identity.address = HardwareAddress("C0:11:22:33:44:56")!
        try store.save(other)
        try store.remove(AccessoryID(7))

        let reopened = BondStore(directory: directory)
        #expect(try reopened.load() == .loaded(count: 1))
        #expect(reopened.bonds == [AccessoryID(8): other])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bonds"])
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aDamagedStoreIsSetAsideNotHalfLoaded() throws {
        let store = BondStore(directory: directory)
        try store.save(bond)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: store.path))

        let reopened = BondStore(directory: directory)
        #expect(try reopened.load() == .setAside(reason: .truncated, setAsideAs: store.path + ".corrupt"))
        #expect(reopened.bonds.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aFailedSaveChangesNothing() throws {
        let store = BondStore(directory: directory + "/missing/state")
        #expect(throws: (any Error).self) { try store.save(bond) }
        #expect(store.bonds.isEmpty)
    }
}
