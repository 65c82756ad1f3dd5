import Glibc
import Testing
@testable import AccessoryPlatform

/// These drive the real sd-event loop on the test's own thread.
@Suite(.serialized) struct EventLoopTests {
    @Test func timerFiresOnceAndCanBeCancelled() throws {
        let loop = try EventLoop()
        var fired = 0
        var cancelled = 0
        try loop.after(.milliseconds(1)) { fired += 1 }
        let token = try loop.after(.milliseconds(1)) { cancelled += 1 }
        loop.cancel(token)
        for _ in 0..<20 where fired == 0 { _ = loop.runOnce(timeout: .milliseconds(100)) }
        _ = loop.runOnce(timeout: .milliseconds(5))
        #expect(fired == 1)
        #expect(cancelled == 0)
    }

    @Test func deliversABlockedSignalThroughTheLoop() throws {
        let loop = try EventLoop()
        var received = false
        try loop.onSignal(SIGUSR2) { received = true }
        // raise() directs the signal at this thread, where onSignal blocked it.
        raise(SIGUSR2)
        for _ in 0..<20 where !received { _ = loop.runOnce(timeout: .milliseconds(100)) }
        #expect(received)
    }

    @Test func watchesADescriptorUntilToldToStop() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var reads: [UInt8] = []
        let token = try loop.watch(fd: fds[0]) { _ in
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { reads.append(byte) }
        }
        var byte: UInt8 = 7
        _ = write(fds[1], &byte, 1)
        for _ in 0..<20 where reads.isEmpty { _ = loop.runOnce(timeout: .milliseconds(100)) }
        #expect(reads == [7])
        loop.stopWatching(token)
        byte = 8
        _ = write(fds[1], &byte, 1)
        _ = loop.runOnce(timeout: .milliseconds(20))
        #expect(reads == [7])
    }

    @Test func exitEndsRunWithTheCode() throws {
        let loop = try EventLoop()
        try loop.after(.milliseconds(1)) { loop.exit(code: 3) }
        #expect(try loop.run() == 3)
    }
}
