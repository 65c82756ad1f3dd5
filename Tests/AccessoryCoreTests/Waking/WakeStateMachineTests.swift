import Testing
@testable import AccessoryCore

/// The wake decisions with a manual clock: when an observed accessory
/// appears, its app is woken at most once per interval, held-back
/// appearances are woken when the wait ends, failures back off.
@Suite struct WakeStateMachineTests {
    let sensor = AccessoryID(0xA1)
    let lamp = AccessoryID(0xB2)
    let clock = ManualClock(MonotonicInstant(nanoseconds: 1_000_000_000_000))
    var machine = WakeStateMachine()

    func at(_ seconds: Int64) -> MonotonicInstant { clock.now.advanced(by: .seconds(seconds)) }

    @Test mutating func anAppearanceWakesTheAppWithoutASession() {
        #expect(machine.appeared(sensor, app: "acme", appHasSession: false, at: clock.now) == [.wake(sensor, "acme")])
    }

    @Test mutating func anAppWithASessionIsNotWoken() {
        #expect(machine.appeared(sensor, app: "acme", appHasSession: true, at: clock.now) == [])
        #expect(machine.nextDeadline == nil)
    }

    /// A flapping accessory: it appears every 5 s for two minutes; the app
    /// (which exits each time) is woken at 0 s, 60 s and 120 s, no more.
    @Test mutating func aFlappingAccessoryWakesItsAppAtMostOncePerInterval() {
        var wakes: [Int64] = []
        var now: Int64 = 0
        while now <= 120 {
            let instant = at(now)
            for action in machine.deadlineReached(appsWithSessions: [], at: instant)
                + machine.appeared(sensor, app: "acme", appHasSession: false, at: instant) {
                if case .wake = action { wakes.append(now); machine.woke(sensor) }
            }
            machine.left(sensor)
            now += 5
        }
        #expect(wakes == [0, 60, 120])
    }

    @Test mutating func anAppearanceInsideTheWaitIsWokenWhenItEnds() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        machine.woke(sensor)
        #expect(machine.appeared(sensor, app: "acme", appHasSession: false, at: at(10)) == [.deferred(sensor, "acme", until: at(60))])
        #expect(machine.nextDeadline == at(60))
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(59)) == [])
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(60)) == [.wake(sensor, "acme")])
        #expect(machine.nextDeadline == nil)
    }

    @Test mutating func aHeldBackWakeIsDroppedWhenTheAccessoryLeavesOrTheAppConnects() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        machine.woke(sensor)
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(10))
        machine.left(sensor)
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(60)) == [])

        _ = machine.appeared(lamp, app: "globex", appHasSession: false, at: at(0))
        machine.woke(lamp)
        _ = machine.appeared(lamp, app: "globex", appHasSession: false, at: at(30))
        #expect(machine.deadlineReached(appsWithSessions: ["globex"], at: at(60)) == [])
    }

    @Test mutating func failuresBackOffExponentiallyUpToTheMaximum() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        #expect(machine.wakeFailed(sensor, at: at(0)) == [.backedOff(sensor, "acme", failures: 1, until: at(120))])
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(119)) == [])
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(120)) == [.wake(sensor, "acme")])
        #expect(machine.wakeFailed(sensor, at: at(120)) == [.backedOff(sensor, "acme", failures: 2, until: at(360))])
        var last = at(360)
        for failures in 3...10 {
            #expect(machine.deadlineReached(appsWithSessions: [], at: last) == [.wake(sensor, "acme")])
            guard case .backedOff(_, _, let count, let until) = machine.wakeFailed(sensor, at: last).first else {
                Issue.record("no back-off"); return
            }
            #expect(count == failures)
            #expect(until.duration(since: last) <= .seconds(3600))
            last = until
        }
        #expect(machine.deadlineReached(appsWithSessions: [], at: last) == [.wake(sensor, "acme")])
        machine.woke(sensor)
        // A success ends the back-off: the next wait is one interval again.
        #expect(machine.notBefore(sensor) == last.advanced(by: .seconds(60)))
    }

    @Test mutating func oneAccessoryFailingDoesNotHoldBackAnother() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        _ = machine.wakeFailed(sensor, at: at(0))
        #expect(machine.appeared(lamp, app: "globex", appHasSession: false, at: at(1)) == [.wake(lamp, "globex")])
    }

    @Test mutating func aWithdrawnWishForgetsEverything() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        _ = machine.wakeFailed(sensor, at: at(0))
        machine.stopped(sensor)
        #expect(machine.nextDeadline == nil)
        #expect(machine.deadlineReached(appsWithSessions: [], at: at(7200)) == [])
        #expect(machine.wakeFailed(sensor, at: at(1)) == [])
    }

    @Test mutating func noSecondWakeWhileOneIsUnderWay() {
        _ = machine.appeared(sensor, app: "acme", appHasSession: false, at: at(0))
        #expect(machine.appeared(sensor, app: "acme", appHasSession: false, at: at(100)) == [])
    }
}

/// Whether the unit a manifest names is the app's own, from what systemd says of it.
@Suite struct WakeSocketFactsTests {
    static let manifest = AppManifest(app: "acme", user: "acmelog", wakeSocket: "acme-wake.socket", supports: [.bluetooth])
    static let good = WakeSocketFacts(loadState: "loaded", listen: [("Stream", "/run/acme/wake.sock")], accept: false,
                                      triggers: ["acme-wake.service"], serviceUser: "acmelog")

    @Test func theAppsOwnSocketGivesItsPath() {
        #expect(Self.good.verdict(for: Self.manifest) == .success("/run/acme/wake.sock"))
    }

    @Test func anythingElseIsRefusedWithTheReason() {
        func refusal(_ change: (inout WakeSocketFacts) -> Void, _ manifest: AppManifest = Self.manifest) -> String? {
            var facts = Self.good
            change(&facts)
            guard case .failure(let refusal) = facts.verdict(for: manifest) else { return nil }
            return refusal.reason
        }
        #expect(refusal { $0.loadState = "not-found" } == "is not-found, not loaded (not installed?)")
        #expect(refusal { $0.accept = true } == "has Accept=yes; waking needs one service, Accept=no")
        #expect(refusal { $0.listen = [("Datagram", "/run/acme/wake.sock")] }?.hasPrefix("must listen") == true)
        #expect(refusal { $0.listen = [("Stream", "[::]:80")] }?.hasPrefix("must listen") == true)
        #expect(refusal { $0.serviceUser = "" } == "starts acme-wake.service as root, not as the app's User=acmelog")
        #expect(refusal { $0.serviceUser = "mallory" } == "starts acme-wake.service as mallory, not as the app's User=acmelog")
        #expect(refusal { $0.triggers = [] } == "must start exactly one service")
        var withUnit = Self.manifest
        withUnit.unit = "acme.service"
        #expect(refusal({ _ in }, withUnit) == "starts acme-wake.service, not the app's Unit=acme.service")
    }
}
