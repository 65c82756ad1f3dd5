import Glibc
import Testing
@testable import AccessoryPlatform

/// These drive the real sd-event loop on the test's own thread.
@Suite(.serialized) struct EventLoopTests {
    @Test func timerFiresOnceAndCanBeCancelled() throws {
        let loop = try EventLoop()
        var fired = 0
        var cancelled = 0
        loop.at(loop.now.advanced(by: .milliseconds(1))) { fired += 1 }
        let token = loop.at(loop.now.advanced(by: .milliseconds(1))) { cancelled += 1 }
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

    /// The monitor's flush point: after the events of a wake-up were
    /// handled, once per wake-up, and never on its own while nothing happens.
    @Test func afterEachBusyIterationRunsOncePerWakeUpAndNeverAlone() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var log: [String] = []
        let token = try loop.watch(fd: fds[0]) { _ in
            var byte: UInt8 = 0
            while read(fds[0], &byte, 1) == 1 { log.append("read \(byte)") }
        }
        defer { loop.stopWatching(token) }
        try loop.afterEachBusyIteration { log.append("after") }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        for _ in 0..<5 { _ = loop.runOnce(timeout: .milliseconds(5)) }
        #expect(log == [])
        var bytes: [UInt8] = [1, 2]
        _ = write(fds[1], &bytes, 2)
        for _ in 0..<20 where !log.contains("after") { _ = loop.runOnce(timeout: .milliseconds(100)) }
        for _ in 0..<5 { _ = loop.runOnce(timeout: .milliseconds(5)) }
        #expect(log == ["read 1", "read 2", "after"])
    }

    @Test func exitEndsRunWithTheCode() throws {
        let loop = try EventLoop()
        loop.at(loop.now.advanced(by: .milliseconds(1))) { loop.exit(code: 3) }
        #expect(try loop.run() == 3)
    }
}
