import Glibc
import Testing
@testable import AccessoryDaemon

/// User names come from this machine's password database.
@Suite struct DeciderTests {
    @Test func anAdministratorIsNamedByUserAndUid() {
        #expect(Decider.administrator(uid: 0).description == "administrator root (uid 0)")
        let nobody = getpwnam("nobody")!.pointee.pw_uid
        #expect(Decider.administrator(uid: nobody).description == "administrator nobody (uid \(nobody))")
    }

    @Test func aUidWithoutAnAccountIsNamedByUidAlone() {
        var uid: UInt32 = 4_000_000_000
        while getpwuid(uid) != nil { uid -= 1 }
        #expect(Decider.administrator(uid: uid).description == "administrator (uid \(uid))")
    }
}
