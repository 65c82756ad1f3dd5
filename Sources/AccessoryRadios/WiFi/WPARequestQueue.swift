import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Glibc

/// Requests to one wpa_supplicant's control socket, carried out on the event
/// loop without ever waiting on it: a request is sent, the socket is watched,
/// and the reply completes it when it comes. One request is in flight at a
/// time (wpa_supplicant's replies carry no id, so order is the only match);
/// at most `capacity` more wait behind it, beyond that a request is refused
/// with `queueFull`. Each one has a deadline armed on the loop's timers: a
/// peer that never answers ends the request with `noReply` (the typed timeout)
/// while the loop goes on serving everything else.
///
/// After a timeout the socket is closed and the next request gets a new one,
/// bound to a new path: a late reply to the old request then has no address
/// to go to, and can never be taken for the answer to a later request.
///
/// A completion is never called from inside `enqueue` (failures to send are
/// delivered on the next loop iteration), so callers may register what the
/// completion needs after enqueueing.
final class WPARequestQueue {
    typealias Completion = (Result<[UInt8], WPAControlError>) -> Void

    let controlPath: String
    let timeout: Duration
    let capacity: Int

    private struct Request {
        let command: WPACommand
        let completion: Completion
    }

    /// Weak: the loop outlives its sources in the daemon, but nothing here
    /// may touch a loop that is gone (tests tear down in any order).
    private weak var loop: EventLoop?
    /// Where the deadline is armed: the loop's, or a test's manual one.
    private weak var scheduler: (any Scheduler)?
    /// The path for the socket of one generation.
    private let localPath: (Int) -> String
    private var generation = 0
    private var socket: WPAControlSocket?
    private var watch: WatchToken?
    private var deadline: TimerToken?
    private var inFlight: Request?
    private var waiting: [Request] = []
    /// Datagrams read per wake-up at most: a flood from the peer cannot hold the loop.
    private static let datagramsPerWakeUp = 16

    init(loop: EventLoop, scheduler: (any Scheduler)? = nil, controlPath: String, localPath: @escaping (Int) -> String,
         timeout: Duration, capacity: Int = 32) {
        self.loop = loop
        self.scheduler = scheduler ?? loop
        self.controlPath = controlPath
        self.localPath = localPath
        self.timeout = timeout
        self.capacity = max(1, capacity)
    }

    deinit { closeSocket() }

    /// Requests sent or waiting, not yet answered.
    var pending: Int { waiting.count + (inFlight == nil ? 0 : 1) }

    func enqueue(_ command: WPACommand, completion: @escaping Completion) {
        guard waiting.count < capacity else {
            deliverLater(completion, .failure(.queueFull(command: command.description)))
            return
        }
        waiting.append(Request(command: command, completion: completion))
        startNext()
    }

    /// Ends every request with `cancelled` and closes the socket, so nothing
    /// answered later reaches anyone.
    func cancelAll() {
        let all = (inFlight.map { [$0] } ?? []) + waiting
        inFlight = nil
        waiting = []
        closeSocket()
        for request in all { request.completion(.failure(.cancelled(command: request.command.description))) }
    }

    private func startNext() {
        guard inFlight == nil, !waiting.isEmpty else { return }
        let request = waiting.removeFirst()
        do throws(SystemError) {
            guard let loop else { throw SystemError(operation: "wpa_supplicant request without its event loop", errno: ESHUTDOWN) }
            let socket = try openSocket(on: loop)
            // Nothing should wait on a socket whose previous request was answered;
            // anything there is not the answer to this one. Bounded: a peer
            // that floods gets its request sent all the same.
            for _ in 0..<Self.datagramsPerWakeUp { guard try socket.receive() != nil else { break } }
            try socket.send(request.command.bytes)
            guard let scheduler else { throw SystemError(operation: "wpa_supplicant request without its scheduler", errno: ESHUTDOWN) }
            deadline = scheduler.at(scheduler.now.advanced(by: timeout)) { [weak self] in self?.timedOut() }
        } catch {
            closeSocket()
            deliverLater(request.completion, .failure(.system(error)))
            startNext()
            return
        }
        inFlight = request
    }

    private func openSocket(on loop: EventLoop) throws(SystemError) -> WPAControlSocket {
        if let socket { return socket }
        generation += 1
        let socket = try WPAControlSocket(controlPath: controlPath, localPath: localPath(generation))
        watch = try loop.watch(fd: socket.fd) { [weak self] _ in self?.readable() }
        self.socket = socket
        return socket
    }

    private func closeSocket() {
        if let deadline { scheduler?.cancel(deadline) }
        deadline = nil
        if let watch { loop?.stopWatching(watch) }
        watch = nil
        socket = nil
    }

    private func readable() {
        guard let socket else { return }
        for _ in 0..<Self.datagramsPerWakeUp {
            let datagram: [UInt8]?
            do throws(SystemError) { datagram = try socket.receive() } catch {
                // ECONNREFUSED: wpa_supplicant went away. The request cannot be answered.
                fail(.system(error))
                return
            }
            guard let datagram else { return }
            // An unsolicited event (`<N>…`) is never a reply; this socket is not
            // ATTACHed, but nothing here trusts that.
            if datagram.first == UInt8(ascii: "<") { continue }
            guard let request = inFlight else { continue }  // answers nothing we asked
            inFlight = nil
            if let deadline { scheduler?.cancel(deadline) }
            deadline = nil
            request.completion(.success(datagram))
            startNext()
            // The completion may have closed us; read the rest on the next wake-up.
            return
        }
    }

    private func timedOut() {
        deadline = nil
        guard let request = inFlight else { return }
        fail(.noReply(command: request.command.description))
    }

    /// Ends the request in flight with `error`; a fresh socket serves the next.
    private func fail(_ error: WPAControlError) {
        let request = inFlight
        inFlight = nil
        closeSocket()
        request?.completion(.failure(error))
        startNext()
    }

    private func deliverLater(_ completion: @escaping Completion, _ result: Result<[UInt8], WPAControlError>) {
        guard let scheduler else { return completion(result) }
        scheduler.at(scheduler.now) { completion(result) }
    }
}
