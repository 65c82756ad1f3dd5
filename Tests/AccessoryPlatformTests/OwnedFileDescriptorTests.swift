import Glibc
import Testing
@testable import AccessoryPlatform

struct OwnedFileDescriptorTests {
    @Test func releasingItClosesTheDescriptor() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // Non-blocking: with the write end still open, the read fails rather than waits.
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var owner: OwnedFileDescriptor? = OwnedFileDescriptor(adopting: fds[1])
        #expect(owner?.rawValue == fds[1])

        owner = nil

        // The only write end is closed: end of file.
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == 0)
    }
}
