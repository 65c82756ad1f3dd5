import AccessoryCore
import AccessoryCodecs
import Foundation
import Glibc
import Testing
import TestSupport

@testable import AccessoryPlatform
@testable import AccessoryRadios

/// wpa_supplicant's requests on the event loop, against a control socket that
/// is a real unix datagram socket: one that never answers (the stalled peer)
/// and one that answers late. What is asserted is the order of things on the
/// loop, never how long anything took; the timeouts run on a manual
/// scheduler, so none is waited for.
@Suite("wpa_supplicant requests on the event loop", .serialized)
struct WPARequestsOnTheLoopTests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("wpa-loop") }

    /// Serves what is ready on the loop; when nothing is, moves the manual
    /// scheduler to its next deadline (a request's timeout): timeouts pass in
    /// microseconds. At most 400 turns (a bound against a hang, not a timing).
    private func run(_ loop: EventLoop, _ scheduler: ManualScheduler, until done: () -> Bool) {
        for _ in 0..<400 where !done() {
            if loop.runOnce(timeout: .zero) { continue }
            scheduler.runDue()
            if done() { return }
            if let next = scheduler.nextDeadline, next > scheduler.now { scheduler.advance(to: next) }
        }
    }

    @Test("a wpa_supplicant that never answers: the loop serves other sources meanwhile, and the request ends with noReply")
    func stalledPeer() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wlan9"))
        let client = try WPASupplicantClient(
            interface: "wlan9", controlDirectory: scratch.path, runtimeDirectory: scratch.path,
            requestTimeout: .milliseconds(300), loop: loop, scheduler: scheduler)
        var order: [String] = []
        var outcome: Result<[WPANetworkListEntry], WPAControlError>?

        // Another source on the same loop (in the daemon: the bus connection).
        let other = try EventLoopWakeup()
        try loop.watch(other) { order.append(outcome == nil ? "other source served, request pending" : "other source served, request over") }
        // The peer reads the request and keeps silent; then pokes the other source.
        let peerWatch = try loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() { order.append("peer got \(request.text)") }
            other.wake()
        }
        defer { loop.stopWatching(peerWatch) }

        client.networks { result in
            outcome = result
            order.append("request ended")
        }
        run(loop, scheduler, until: { outcome != nil })

        #expect(order == ["peer got LIST_NETWORKS", "other source served, request pending", "request ended"])
        guard case .failure(let error)? = outcome else {
            Issue.record("no typed failure: \(String(describing: outcome))")
            return
        }
        #expect(error == .noReply(command: "LIST_NETWORKS"))
    }

    @Test("after a timeout a late reply reaches nobody, and the next request gets its own reply")
    func lateReply() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wlan9"))
        let client = try WPASupplicantClient(
            interface: "wlan9", controlDirectory: scratch.path, runtimeDirectory: scratch.path,
            requestTimeout: .milliseconds(300), loop: loop, scheduler: scheduler)
        var senders: [String] = []
        var lateDelivered: Bool?
        let peerWatch = try loop.watch(fd: peer.fd) { _ in
            while let request = peer.receive() {
                senders.append(request.sender)
                if request.text == "PING" {
                    // Now the answer to STATUS, far too late, then PING's.
                    lateDelivered = peer.reply("wpa_state=COMPLETED\n", to: senders[0])
                    peer.reply("PONG\n", to: request.sender)
                }
            }
        }
        defer { loop.stopWatching(peerWatch) }

        var first: Result<[UInt8], WPAControlError>?
        var second: Result<[UInt8], WPAControlError>?
        client.request(.status) { first = $0 }
        run(loop, scheduler, until: { first != nil })
        client.request(.ping) { second = $0 }
        run(loop, scheduler, until: { second != nil })

        #expect(first.map { if case .failure(.noReply(command: "STATUS")) = $0 { true } else { false } } == true)
        #expect(try second?.get() == Array("PONG\n".utf8))
        #expect(senders.count == 2 && senders[0] != senders[1], "a fresh socket after the timeout: \(senders)")
        #expect(lateDelivered == false, "the timed-out request's socket is gone")
    }

    @Test("requests beyond the queue's bound are refused with queueFull; those queued end in order")
    func bounded() throws {
        let loop = try EventLoop(pingsWatchdog: false)
        let scheduler = ManualScheduler()
        let peer = try UnixDatagramPeer(path: scratch.path("wlan9"))
        _ = peer
        let queue = WPARequestQueue(
            loop: loop, scheduler: scheduler, controlPath: scratch.path("wlan9"), localPath: { [path = scratch.path] in "\(path)/q-\($0)" },
            timeout: .milliseconds(100), capacity: 2)
        var results: [String] = []
        for _ in 0..<4 {
            queue.enqueue(.ping) { result in
                switch result {
                case .failure(.queueFull): results.append("queueFull")
                case .failure(.noReply): results.append("noReply")
                default: results.append("other")
                }
            }
        }
        run(loop, scheduler, until: { results.count == 4 })
        // One in flight, two waiting, the fourth refused (first, since it is refused at once).
        #expect(results == ["queueFull", "noReply", "noReply", "noReply"])
    }
}
