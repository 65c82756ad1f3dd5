import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Glibc
import Testing
@testable import AccessoryDaemon

/// Item 8 of issue 24: a bus daemon that does not answer accessoryd's
/// question about a caller holds up that caller only. The dbus-daemon is
/// stopped (SIGSTOP) with two calls waiting on accessoryd's socket: first a
/// new caller's (whose credentials accessoryd must ask for), then a known
/// session owner's (which needs nothing from the bus daemon). accessoryd
/// serves the second while the first waits; once the bus daemon runs again
/// the first is answered too, rightly. A loop that waited for the bus daemon
/// would serve neither until its query timed out, then refuse the first.
@Suite(.serialized) struct UnansweringBusDaemonTests {
    @Test func aCallerWhoseCredentialsAreAskedForHoldsUpNobodyElse() throws {
        let good = HostileClientTests.good
        let h = try ServiceHarness(manifests: [good])
        let markers = try HostileClientTests.markers(h)
        // The session owner: opens and activates, then invalidates when told.
        let owner = try h.startClient([
            ["session"], ["mark", markers + "/owner-ready"], ["wait", markers + "/go-owner"],
            ["call", "session", BusNames.session, "Invalidate"],
        ], as: good.user)
        // The newcomer (root, an administrator): one call, when told.
        let newcomer = try h.startClient([
            ["mark", markers + "/newcomer-ready"], ["wait", markers + "/go-newcomer"],
            ["call", BusNames.root, BusNames.admin, "ListRequests"],
        ])
        h.pump { FileManager.default.fileExists(atPath: markers + "/owner-ready") && FileManager.default.fileExists(atPath: markers + "/newcomer-ready") }
        let session = try #require(h.service.openSessions.first)
        #expect(session.state == .active)
        // Drain what is queued, then hold the loop and let the two calls arrive, in order.
        for _ in 0..<40 { _ = h.loop.runOnce(timeout: .milliseconds(25)) }
        let fd = h.connection.fileDescriptor
        func unread() -> Int32 {
            var count: Int32 = 0
            _ = ioctl(fd, 0x541B /* FIONREAD */, &count)
            return count
        }
        let idle = unread()
        FileManager.default.createFile(atPath: markers + "/go-newcomer", contents: nil)
        while unread() == idle { usleep(10_000) }
        let first = unread()
        FileManager.default.createFile(atPath: markers + "/go-owner", contents: nil)
        while unread() == first { usleep(10_000) }

        kill(h.bus.daemonPID, SIGSTOP)
        var outstandingWhenServed = -1
        h.pump {
            if session.state == .invalidated, outstandingWhenServed < 0 { outstandingWhenServed = h.service.callers.outstanding }
            return session.state == .invalidated
        }
        kill(h.bus.daemonPID, SIGCONT)
        // Served while the newcomer's credentials were still being asked for.
        #expect(session.state == .invalidated)
        #expect(outstandingWhenServed == 1)
        #expect(h.finish(owner) == "ok\n")
        #expect(h.finish(newcomer) == "[]\n")
    }
}
