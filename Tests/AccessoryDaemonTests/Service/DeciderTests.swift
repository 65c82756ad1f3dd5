import Testing
@testable import AccessoryDaemon

/// The name comes with the caller's credentials (looked up off the loop,
/// `UserNameLookup`); the decider never asks the name service itself.
@Suite struct DeciderTests {
    @Test func anAdministratorIsNamedByUserAndUid() {
        #expect(Decider.administrator(uid: 0, name: "root").description == "administrator root (uid 0)")
        #expect(Decider.administrator(uid: 1001, name: "alice").description == "administrator alice (uid 1001)")
    }

    @Test func aUidWithoutAnAccountIsNamedByUidAlone() {
        #expect(Decider.administrator(uid: 4_000_000_000, name: nil).description == "administrator (uid 4000000000)")
    }
}
