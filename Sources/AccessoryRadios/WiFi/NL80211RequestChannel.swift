import AccessoryCore
import AccessoryPlatform
import Glibc

/// nl80211 requests on the event loop: each is sent, its socket watched, and
/// its answer assembled from the datagrams as they arrive
/// (`NL80211ReplyAssembly`), so the loop never waits for the kernel. One
/// request is in flight at a time, at most `capacity` more wait behind it
/// (beyond that: `queueFull`). Each has a deadline armed on the loop's timers;
/// a kernel (or a peer playing it) that never answers ends the request with
/// `timedOut` while the loop serves everything else. Sequence numbers tell a
/// late answer to an earlier request from the current one's.
///
/// Completions are never called from inside `send` (a failure to send is
/// delivered on the next loop iteration).
final class NL80211RequestChannel {
    typealias Completion = (NL80211ReplyAssembly.Outcome) -> Void

    let timeout: Duration
    let capacity: Int

    private struct Request {
        let bytes: [UInt8]
        var assembly: NL80211ReplyAssembly
        let completion: Completion
    }

    /// Weak: the loop outlives its sources in the daemon, but nothing here
    /// may touch a loop that is gone (tests tear down in any order).
    private weak var loop: EventLoop?
    /// Where the deadline is armed: the loop's, or a test's manual one.
    private weak var scheduler: (any Scheduler)?
    private let transport: any NetlinkTransport
    private var watch: WatchToken?
    private var deadline: TimerToken?
    private var inFlight: Request?
    private var waiting: [Request] = []
    /// Datagrams read per wake-up at most, so one long dump cannot hold the
    /// loop: the rest is read on the next wake-ups, between other sources.
    private static let datagramsPerWakeUp = 32

    init(loop: EventLoop, scheduler: (any Scheduler)? = nil, transport: any NetlinkTransport, timeout: Duration,
         capacity: Int = 16) throws(SystemError) {
        self.loop = loop
        self.scheduler = scheduler ?? loop
        self.transport = transport
        self.timeout = timeout
        self.capacity = max(1, capacity)
        watch = try loop.watch(fd: transport.fileDescriptor) { [weak self] _ in self?.readable() }
    }

    deinit { close() }

    /// Requests sent or waiting, not yet answered.
    var pending: Int { waiting.count + (inFlight == nil ? 0 : 1) }

    func send(_ bytes: [UInt8], expecting assembly: NL80211ReplyAssembly, completion: @escaping Completion) {
        guard watch != nil else {
            deliverLater(completion, .failed(.cancelled(operation: assembly.operation)))
            return
        }
        guard waiting.count < capacity else {
            deliverLater(completion, .failed(.queueFull(operation: assembly.operation)))
            return
        }
        waiting.append(Request(bytes: bytes, assembly: assembly, completion: completion))
        startNext()
    }

    /// Stops watching the socket and ends every request with `cancelled`.
    func close() {
        if let watch { loop?.stopWatching(watch) }
        watch = nil
        if let deadline { scheduler?.cancel(deadline) }
        deadline = nil
        let all = (inFlight.map { [$0] } ?? []) + waiting
        inFlight = nil
        waiting = []
        for request in all { request.completion(.failed(.cancelled(operation: request.assembly.operation))) }
    }

    private func startNext() {
        while inFlight == nil, !waiting.isEmpty {
            let request = waiting.removeFirst()
            do throws(SystemError) {
                guard let scheduler else { throw SystemError(operation: "nl80211 request without its scheduler", errno: ESHUTDOWN) }
                try transport.send(request.bytes)
                deadline = scheduler.at(scheduler.now.advanced(by: timeout)) { [weak self] in self?.timedOut() }
                inFlight = request
            } catch {
                deliverLater(request.completion, .failed(.transport(error)))
            }
        }
    }

    private func readable() {
        for _ in 0..<Self.datagramsPerWakeUp {
            let datagram: [UInt8]?
            do throws(SystemError) { datagram = try transport.receive() } catch {
                // ENOBUFS: parts of the answer were dropped; it cannot be complete.
                // Anything else: the socket failed. Either way the request ends here;
                // what is left of its answer is skipped by its sequence number.
                end(.failed(.transport(error)))
                continue
            }
            guard let datagram else { return }
            guard var request = inFlight else { continue }  // nothing asked: skipped
            if let outcome = request.assembly.consume(datagram) {
                end(outcome)
            } else {
                inFlight = request
            }
        }
    }

    private func timedOut() {
        deadline = nil
        guard let request = inFlight else { return }
        end(.failed(.timedOut(operation: request.assembly.operation)))
    }

    private func end(_ outcome: NL80211ReplyAssembly.Outcome) {
        guard let request = inFlight else { return }
        inFlight = nil
        if let deadline { scheduler?.cancel(deadline) }
        deadline = nil
        request.completion(outcome)
        startNext()
    }

    private func deliverLater(_ completion: @escaping Completion, _ outcome: NL80211ReplyAssembly.Outcome) {
        guard let scheduler else { return completion(outcome) }
        scheduler.at(scheduler.now) { completion(outcome) }
    }
}
