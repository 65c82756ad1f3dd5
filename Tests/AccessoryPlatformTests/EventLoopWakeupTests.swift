import Glibc
import Testing
@testable import AccessoryPlatform

/// Waking a loop from another thread, as the client library's bus thread is woken.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopWakeupTests {
    @Test func aWakeFromAnotherThreadRunsTheHandlerOnTheLoop() throws {
        let loop = try EventLoop()
        let wakeup = try EventLoopWakeup()
        try loop.watch(wakeup) { loop.exit(code: 5) }
        // A bound, so a wake-up that never arrives fails rather than hangs.
        loop.at(loop.now.advanced(by: .seconds(30))) { loop.exit(code: -1) }

        try DetachedThread.start { wakeup.wake() }

        #expect(try loop.run() == 5)
    }

    @Test func wakeUpsBeforeTheLoopGetsToThemMakeOneCall() throws {
        let loop = try EventLoop()
        let wakeup = try EventLoopWakeup()
        var calls = 0
        try loop.watch(wakeup) { calls += 1 }

        for _ in 0..<3 { wakeup.wake() }
        for _ in 0..<20 where calls == 0 { _ = loop.runOnce(timeout: .seconds(1)) }
        #expect(calls == 1)
        // Nothing pending any more: an iteration that does not wait runs nothing.
        _ = loop.runOnce(timeout: .zero)
        #expect(calls == 1)

        wakeup.wake()
        for _ in 0..<20 where calls == 1 { _ = loop.runOnce(timeout: .seconds(1)) }
        #expect(calls == 2)
    }

    @Test func aStoppedWatchIsNotCalled() throws {
        let loop = try EventLoop()
        let wakeup = try EventLoopWakeup()
        var calls = 0
        let token = try loop.watch(wakeup) { calls += 1 }
        loop.stopWatching(token)

        wakeup.wake()
        _ = loop.runOnce(timeout: .zero)
        #expect(calls == 0)
    }
}
