import Glibc
import Testing
@testable import AccessoryPlatform

/// The broker watches the sockets it handed out for their end only: data for
/// the app must not wake the daemon, a hang-up must.
@Suite(.serialized) struct SocketEventSourceTests {
    @Test func hangUpMaskIgnoresDataAndSeesTheEnd() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, SocketType.sequencedPacket, 0, &fds) == 0)
        defer { close(fds[0]) }
        var wakes: [UInt32] = []
        let source = try SocketEventSource(loop: loop, fd: fds[0], events: SocketEventSource.hangUp) { wakes.append($0) }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        _ = loop.runOnce(timeout: .milliseconds(50))
        #expect(wakes.isEmpty)
        close(fds[1])
        for _ in 0..<20 where wakes.isEmpty { _ = loop.runOnce(timeout: .milliseconds(100)) }
        // EPOLLRDHUP, or EPOLLHUP (0x10), which epoll reports whatever the mask.
        #expect(wakes.first.map { $0 & (SocketEventSource.hangUp | 0x10) != 0 } == true)
        source.cancel()
        source.cancel()  // twice is harmless
    }
}
