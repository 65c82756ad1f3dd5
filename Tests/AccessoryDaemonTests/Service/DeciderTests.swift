import Testing
@testable import AccessoryDaemon

@Suite struct DeciderTests {
    @Test func anAdministratorIsNamedByUserAndUid() {
        #expect(Decider.administrator(uid: 1001, user: "alice").description == "administrator alice (uid 1001)")
        #expect(Decider.administrator(uid: 4242, user: nil).description == "administrator (uid 4242)")
    }
}
