import CNetlink
import Glibc
import Testing
@testable import AccessoryPlatform
@testable import AccessoryRadios

/// libnl reports its own error codes; the ones that say "this kernel has no
/// generic netlink" must come out as the errno that WiFiInterfaceInfo.all()
/// takes for "no Wi-Fi", the rest as what they are.
@Suite struct NetlinkErrnoTests {
    @Test func noGenericNetlinkIsNamedAsSuch() {
        // socket(AF_NETLINK, …, NETLINK_GENERIC) failing with EPROTONOSUPPORT (qemu-user) reaches us as this.
        #expect(nlErrno(-nl_syserr2nlerr(EPROTONOSUPPORT)) == EPROTONOSUPPORT)
        #expect(nlErrno(-nl_syserr2nlerr(EAFNOSUPPORT)) == EAFNOSUPPORT)
    }

    @Test func otherFailuresKeepTheirMeaning() {
        #expect(nlErrno(-nl_syserr2nlerr(EPERM)) == EPERM)
        #expect(nlErrno(-nl_syserr2nlerr(ENOMEM)) == ENOMEM)
        #expect(nlErrno(-nl_syserr2nlerr(EIO)) == EIO)
    }
}
