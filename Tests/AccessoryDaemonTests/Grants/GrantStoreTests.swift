import AccessoryCodecs
import AccessoryCore
import Foundation
import Testing
import TestSupport
@testable import AccessoryDaemon

@Suite struct GrantStoreTests {
    let scratch: ScratchDirectory
    var directory: String { scratch.path }

    init() throws {
        scratch = try ScratchDirectory("grants")
    }

    let grant = Grant(accessory: AccessoryID(7), app: "acme", displayName: "Porch", state: .authorized,
                      ssid: SSID("ACME-1234"))

    @Test func savedGrantsAreThereAfterAReload() throws {
        let store = GrantStore(directory: directory)
        #expect(try store.load() == .empty)
        try store.save(grant)
        var other = grant
        other.accessory = AccessoryID(8)
        try store.save(other)
        try store.remove(AccessoryID(7))

        let reopened = GrantStore(directory: directory)
        #expect(try reopened.load() == .loaded(count: 1))
        #expect(reopened.grants == [AccessoryID(8): other])
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["grants"])
    }

    @Test func aTruncatedStoreIsSetAsideNotHalfLoaded() throws {
        let store = GrantStore(directory: directory)
        try store.save(grant)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: store.path))

        let reopened = GrantStore(directory: directory)
        #expect(try reopened.load() == .setAside(reason: .truncated, setAsideAs: store.path + ".corrupt"))
        #expect(reopened.grants.isEmpty)
        #expect(FileManager.default.fileExists(atPath: store.path + ".corrupt"))
        #expect(!FileManager.default.fileExists(atPath: store.path))
        // A second bad file does not overwrite the first one set aside.
        try Data("junk".utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(try GrantStore(directory: directory).load()
            == .setAside(reason: .truncated, setAsideAs: store.path + ".corrupt-2"))
    }

    @Test func aMissingStateDirectoryIsMadeOnTheFirstSave() throws {
        let store = GrantStore(directory: directory + "/state")
        try store.save(grant)
        #expect(try GrantStore(directory: directory + "/state").load() == .loaded(count: 1))
    }

    @Test func aFailedSaveChangesNothing() throws {
        // Only the state directory itself is made, never its parents.
        let store = GrantStore(directory: directory + "/missing/state")
        #expect(throws: (any Error).self) { try store.save(grant) }
        #expect(store.grants.isEmpty)
    }
}
