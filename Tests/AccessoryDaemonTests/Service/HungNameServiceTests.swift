import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Foundation
import Glibc
import Testing
@testable import AccessoryDaemon

/// Item 8 of issue 24, its name-service half: the first lookup of a caller's
/// user name (NSS: LDAP, sssd …) runs on a worker, never on the loop. Here the
/// name service does not answer for one uid until the test lets it: that
/// uid's caller waits, every other caller is served meanwhile, and the waiting
/// one is answered, as the right app, once the name service answers (or
/// refused, naming the name service, past the deadline).
@Suite(.serialized) struct HungNameServiceTests {
    /// A name service that answers for `hungUID` only after `release()`.
    final class HungNameService: Sendable {
        let hungUID: UInt32
        private let gate = DispatchSemaphore(value: 0)
        init(hungUID: UInt32) { self.hungUID = hungUID }
        var lookUp: UserNameLookup.LookUp {
            { [self] uid in
                if uid == hungUID { gate.wait(); gate.signal() }
                return UnixUser.name(of: uid)
            }
        }
        func release() { gate.signal() }
    }

    static func uid(of user: String) throws -> UInt32 { try #require(getpwnam(user)).pointee.pw_uid }

    @Test func aCallerWhoseNameIsBeingLookedUpHoldsUpNobodyElse() throws {
        let (good, other) = (PickerApprovalTests.appA, PickerApprovalTests.appB)
        let otherUser = try #require(other.user)
        let goodUser = try #require(good.user)
        let nameService = HungNameService(hungUID: try Self.uid(of: otherUser))
        defer { nameService.release() }
        let h = try ServiceHarness(manifests: [good, other], lookUpUserName: nameService.lookUp)
        let markers = try HostileClientTests.markers(h)
        // The caller whose name service hangs: one OpenSession, and it keeps the session until told.
        let stuck = try h.startClient([["call", BusNames.root, BusNames.manager, "OpenSession"], ["wait", markers + "/done"]],
                                      as: otherUser)
        h.pump { h.service.callers.userNames.running.contains(nameService.hungUID) }
        #expect(h.service.callers.userNames.running.contains(nameService.hungUID))
        // Another app, a uid of its own, is served in full meanwhile.
        let served = try h.startClient([
            ["call", BusNames.root, BusNames.manager, "OpenSession"], ["call", "session", BusNames.session, "Activate"],
            ["wait", markers + "/done"],
        ], as: goodUser)
        h.pump { h.service.openSessions.first?.state == .active }
        #expect(h.service.openSessions.map { "\($0.app)" } == ["\(good.app)"])
        #expect(h.service.openSessions.first?.state == .active)
        #expect(stuck.0.isRunning)
        #expect(h.service.callers.outstanding == 1)
        // The name service answers: the waiting caller is served, as its own app.
        nameService.release()
        h.pump { h.service.openSessions.count == 2 }
        #expect(h.service.openSessions.map { "\($0.app)" }.sorted() == ["\(good.app)", "\(other.app)"].sorted())
        FileManager.default.createFile(atPath: markers + "/done", contents: nil)
        #expect(h.finish(stuck).hasPrefix("/org/accessoryagent/session/"))
        let servedLines = h.finish(served).split(separator: "\n")
        #expect(servedLines.count == 2 && servedLines[0].hasPrefix("/org/accessoryagent/session/") && servedLines[1].hasPrefix("["))
        #expect(h.service.callers.userNames.known(nameService.hungUID) == .some(otherUser))
    }

    @Test func pastTheDeadlineTheCallerIsRefusedNamingTheNameServiceAndTheAnswerIsKeptForLater() throws {
        let loop = try EventLoop()
        let nameService = HungNameService(hungUID: 4_000_000_001)
        defer { nameService.release() }
        let scheduler = ManualScheduler()
        let lookup = try UserNameLookup(loop: loop, scheduler: scheduler, deadline: .seconds(10), maximumRunning: 1,
                                        lookUp: nameService.lookUp)
        var answers: [UserNameLookup.Answer] = []
        lookup.resolve(nameService.hungUID) { answers.append($0) }
        lookup.resolve(nameService.hungUID) { answers.append($0) }
        scheduler.advance(by: .seconds(9))
        #expect(answers.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(answers.count == 2)
        for answer in answers {
            guard case .failure(let error) = answer else { Issue.record("answered \(answer)"); continue }
            #expect(error.name == "org.freedesktop.DBus.Error.AccessDenied")
            #expect(error.message.contains("name service"))
            #expect(error.message.contains("uid 4000000001"))
        }
        // Still running, and the only worker allowed: another uid is refused at once, not given a thread.
        #expect(lookup.running == [nameService.hungUID])
        var refusedAtOnce: UserNameLookup.Answer?
        lookup.resolve(0) { refusedAtOnce = $0 }
        guard case .failure(let busy) = refusedAtOnce else { Issue.record("not refused: \(String(describing: refusedAtOnce))"); return }
        #expect(busy.message.contains("outstanding"))
        // The lookup ends: its answer is kept, and the next caller of that uid gets it at once.
        nameService.release()
        for _ in 0..<400 where !lookup.running.isEmpty { _ = loop.runOnce(timeout: .milliseconds(25)) }
        #expect(lookup.known(nameService.hungUID) == .some(nil))
        var later: UserNameLookup.Answer?
        lookup.resolve(nameService.hungUID) { later = $0 }
        guard case .success(let name) = later else { Issue.record("not answered at once: \(String(describing: later))"); return }
        #expect(name == nil)
        var root: UserNameLookup.Answer?
        lookup.resolve(0) { root = $0 }
        for _ in 0..<400 where root == nil { _ = loop.runOnce(timeout: .milliseconds(25)) }
        guard case .success(let rootName) = root else { Issue.record("root: \(String(describing: root))"); return }
        #expect(rootName == "root")
    }
}
