import AccessoryCore
import AccessoryPlatform
import Glibc
import Testing
import TestSupport
@testable import AccessoryDaemon

/// How accessoryd learns a caller's systemd unit when /proc hides it (the
/// shipped unit's `ProtectProc=invisible`): it asks systemd without waiting,
/// the caller waits at most the deadline (moved here by a ManualScheduler),
/// and the answer is remembered for the connection's life. Real dbus-daemon,
/// systemd played by `SystemdStandIn`; /proc is made to say nothing.
@Suite(.serialized) struct CallerUnitLookupTests {
    final class Setup {
        let bus: PrivateBus
        let loop: EventLoop
        let scheduler = ManualScheduler()
        let connection: BusConnection
        let units: CallerUnitLookup

        init(readProc: @escaping CallerUnitLookup.ReadProc = { _ in nil }) throws {
            bus = try PrivateBus()
            loop = try EventLoop()
            connection = try BusConnection(address: bus.address, loop: loop)
            units = CallerUnitLookup(connection: connection, scheduler: scheduler, deadline: .seconds(10), readProc: readProc)
        }

        func systemd(_ behaviour: SystemdStandIn.Behaviour) throws -> SystemdStandIn {
            try SystemdStandIn(address: bus.address, loop: loop, behaviour)
        }

        func pump(until done: () -> Bool) {
            for _ in 0..<800 where !done() { _ = loop.runOnce(timeout: .milliseconds(25)) }
        }

        func resolve(_ pid: UInt32?) -> CallerUnitLookup.Answer? {
            var answer: CallerUnitLookup.Answer?
            units.resolve(pid: pid) { answer = $0 }
            pump { answer != nil }
            return answer
        }
    }

    @Test func systemdsAnswerIsTheUnit() throws {
        let s = try Setup()
        let systemd = try s.systemd(.unit("unit-logger.service"))
        let answer = try #require(s.resolve(4242))
        #expect(try answer.get() == .named("unit-logger.service"))
        #expect(systemd.askedPIDs == [4242])
        #expect(s.units.outstanding == 0)
    }

    @Test func aReadableProcIsAskedFirstAndSystemdNot() throws {
        let s = try Setup(readProc: { $0 == 4242 ? "from-proc.service" : nil })
        let systemd = try s.systemd(.unit("unit-logger.service"))
        var answer: CallerUnitLookup.Answer?
        s.units.resolve(pid: 4242) { answer = $0 }
        #expect(try answer?.get() == .named("from-proc.service"))
        // Answered before resolve returned: no question was put to systemd.
        #expect(s.units.outstanding == 0)
        #expect(systemd.askedPIDs.isEmpty)
    }

    @Test func withoutSystemdOnTheBusTheUnitIsUnknownAndSaysWhy() throws {
        let s = try Setup()
        let answer = try #require(s.resolve(4242))
        #expect(try answer.get() == .unknown(why: "systemd (org.freedesktop.systemd1) is not on the bus"))
    }

    @Test func aProcessInNoUnitHasNone() throws {
        let s = try Setup()
        let systemd = try s.systemd(.noUnit)
        let answer = try #require(s.resolve(4242))
        #expect(systemd.askedPIDs == [4242])
        #expect(try answer.get() == .unknown(why: "systemd says process 4242 is in no unit"))
    }

    @Test func noPIDIsNeverAskedForSinceSystemdWouldAnswerWithAccessorydsOwnUnit() throws {
        let s = try Setup()
        let systemd = try s.systemd(.unit("accessoryd.service"))
        for pid: UInt32? in [nil, 0] {
            let answer = try #require(s.resolve(pid))
            #expect(try answer.get() == .unknown(why: "the bus did not say which process the caller is"))
        }
        #expect(systemd.askedPIDs.isEmpty)
    }

    @Test func anotherErrorRefusesTheCallRatherThanGuess() throws {
        let s = try Setup()
        let systemd = try s.systemd(.error("org.freedesktop.DBus.Error.AccessDenied"))
        let answer = try #require(s.resolve(4242))
        #expect(systemd.askedPIDs == [4242])
        #expect(throws: BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                                 message: "cannot tell who the caller is: systemd (org.freedesktop.systemd1) was asked which unit process 4242 runs in "
                                     + "and it answered org.freedesktop.DBus.Error.AccessDenied: refused by the stand-in; call again")) {
            try answer.get()
        }
    }

    @Test func noAnswerWithinTheDeadlineRefusesAndALateOneIsDropped() throws {
        let s = try Setup()
        let systemd = try s.systemd(.silent)
        var answers: [CallerUnitLookup.Answer] = []
        s.units.resolve(pid: 4242) { answers.append($0) }
        s.pump { systemd.holding == 1 }
        #expect(systemd.holding == 1)
        s.scheduler.advance(by: .seconds(9))
        #expect(answers.isEmpty)
        #expect(s.units.outstanding == 1)
        s.scheduler.advance(by: .seconds(1))
        #expect(answers.count == 1)
        #expect(throws: BusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                                 message: "cannot tell who the caller is: systemd (org.freedesktop.systemd1) was asked which unit process 4242 runs in "
                                     + "and it did not answer within 10.0 seconds; call again")) {
            try answers[0].get()
        }
        #expect(s.units.outstanding == 0)
        // The answer after the deadline reaches nobody: the caller was refused, once. (The
        // next question's answer comes after it on the same connection.)
        systemd.answerLate("late.service")
        let next = try #require(s.resolve(4343))
        #expect(try next.get() == .named("late.service"))
        #expect(answers.count == 1)
    }
}

/// The directory above it: one question to systemd per connection, however
/// many calls arrive before the answer, remembered while the connection lasts.
@Suite(.serialized) struct CallerDirectoryUnitTests {
    final class Setup {
        let base: CallerUnitLookupTests.Setup
        let directory: CallerDirectory
        /// The caller: a connection of this process (its pid is the test's).
        let caller: BusConnection
        let sender: String

        init() throws {
            base = try CallerUnitLookupTests.Setup()
            directory = CallerDirectory(connection: base.connection,
                                        userNames: try UserNameLookup(loop: base.loop, scheduler: base.scheduler),
                                        units: base.units)
            caller = try BusConnection(address: base.bus.address, loop: base.loop)
            sender = try #require(caller.uniqueName)
        }
    }

    @Test func twoFirstCallsAskSystemdOnceAndTheAnswerIsRemembered() throws {
        let s = try Setup()
        let systemd = try s.base.systemd(.unit("unit-logger.service"))
        var answers: [CallerDirectory.Answer] = []
        s.directory.resolve(s.sender) { answers.append($0) }
        s.directory.resolve(s.sender) { answers.append($0) }
        s.base.pump { answers.count == 2 }
        #expect(answers.count == 2)
        #expect(answers.map { try? $0.get().unit } == ["unit-logger.service", "unit-logger.service"])
        #expect(systemd.askedPIDs == [UInt32(getpid())])
        // Known now: answered at once, systemd not asked again.
        #expect(s.directory.known(s.sender)?.unit == "unit-logger.service")
        var again: CallerDirectory.Answer?
        s.directory.resolve(s.sender) { again = $0 }
        #expect(try again?.get().unit == "unit-logger.service")
        #expect(systemd.askedPIDs.count == 1)
        // Gone from the bus: forgotten; a new connection is asked about afresh.
        s.directory.forget(s.sender)
        #expect(s.directory.known(s.sender) == nil)
    }

    @Test func bothWaitingCallsAreRefusedAtTheDeadlineAndNothingIsRemembered() throws {
        let s = try Setup()
        let systemd = try s.base.systemd(.silent)
        var answers: [CallerDirectory.Answer] = []
        s.directory.resolve(s.sender) { answers.append($0) }
        s.directory.resolve(s.sender) { answers.append($0) }
        s.base.pump { systemd.holding == 1 }
        #expect(systemd.holding == 1)
        s.base.scheduler.advance(by: .seconds(10))
        #expect(answers.count == 2)
        for answer in answers {
            #expect(throws: BusError.self) { try answer.get() }
        }
        #expect(s.directory.known(s.sender) == nil)
        #expect(s.directory.outstanding == 0)
        // Called again, after systemd came back: asked anew, and answered.
        systemd.answerLate("unit-logger.service")
        var again: CallerDirectory.Answer?
        s.directory.resolve(s.sender) { again = $0 }
        s.base.pump { again != nil }
        #expect(try again?.get().unit == "unit-logger.service")
        #expect(systemd.askedPIDs.count == 2)
    }

    @Test func withoutSystemdTheCallerIsKnownWithItsUnitUnknownAndWhy() throws {
        let s = try Setup()
        var answer: CallerDirectory.Answer?
        s.directory.resolve(s.sender) { answer = $0 }
        s.base.pump { answer != nil }
        let credentials = try #require(try answer?.get())
        #expect(credentials.unit == nil)
        #expect(credentials.unitUnknown == "systemd (org.freedesktop.systemd1) is not on the bus")
    }
}
