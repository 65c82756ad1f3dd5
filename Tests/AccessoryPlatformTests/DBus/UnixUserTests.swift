import AccessoryPlatform
import Glibc
import Testing

/// User names come from the real password database of this machine.
@Suite struct UnixUserTests {
    @Test func knownUidsHaveTheirNames() {
        #expect(UnixUser.name(of: 0) == "root")
        let nobody = getpwnam("nobody")!.pointee.pw_uid
        #expect(UnixUser.name(of: nobody) == "nobody")
    }

    @Test func aUidWithoutAUserHasNoName() {
        // The highest uid below (uid_t)-1 that no account on this machine uses.
        var uid: UInt32 = 4_000_000_000
        while getpwuid(uid) != nil { uid -= 1 }
        #expect(UnixUser.name(of: uid) == nil)
    }
}
