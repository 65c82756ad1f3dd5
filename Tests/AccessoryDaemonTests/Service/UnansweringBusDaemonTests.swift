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
        let owner = try h.start("""
            import os, time
            s = call(manager, "org.accessoryagent.Manager1", "OpenSession")
            call(s, "org.accessoryagent.Session1", "Activate")
            open("\(markers)/owner-ready", "w").close()
            wait_for("\(markers)/go-owner")
            print("owner", call(s, "org.accessoryagent.Session1", "Invalidate", timeout=120))
            """, as: good.user)
        // The newcomer (root, an administrator): one call, when told.
        let newcomer = try h.start("""
            open("\(markers)/newcomer-ready", "w").close()
            wait_for("\(markers)/go-newcomer")
            print("newcomer", len(call(manager, "org.accessoryagent.Admin1", "ListRequests", timeout=120)))
            """)
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
        #expect(h.finish(owner) == "owner None\n")
        #expect(h.finish(newcomer) == "newcomer 0\n")
    }
}
