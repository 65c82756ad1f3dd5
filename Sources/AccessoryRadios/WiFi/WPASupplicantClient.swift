import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import Glibc

/// Talks to the wpa_supplicant of one interface, as wpa_cli does: one socket for
/// requests, another ATTACHed for events. Both are bound under the daemon's
/// runtime directory (never /tmp), so nobody else can take their names.
///
/// Two ways to ask:
/// - On the event loop (the daemon at work): the methods taking a completion.
///   They go through a `WPARequestQueue` on `loop`: sent, answered when the
///   reply comes, ended with `WPAControlError.noReply` at the deadline; the
///   loop never waits for wpa_supplicant. ATTACH on the event socket too.
/// - Blocking, bounded by `requestTimeout` (the methods that throw): only where
///   no loop runs yet or any more, the recovery of an interrupted join before
///   the loop starts, the restore when the daemon stops, and one-shot commands.
///   They cancel what the queue still holds first, so replies never cross.
public final class WPASupplicantClient {
    public let interface: String
    public let controlPath: String
    public let requestTimeout: Duration
    private let requests: WPAControlSocket
    private let runtimeDirectory: String
    private var events: WPAControlSocket?
    private var eventWatch: WatchToken?
    private var attachDeadline: TimerToken?
    /// The completion of an ATTACH not acknowledged yet.
    private var pendingAttach: ((Result<Void, WPAControlError>) -> Void)?
    private weak var loop: EventLoop?
    /// Where request and ATTACH deadlines are armed: the loop's, or a test's manual one.
    private weak var scheduler: (any Scheduler)?
    private var queue: WPARequestQueue?

    /// The control directory is wpa_supplicant's `ctrl_interface` (`-C`); Debian's default is /run/wpa_supplicant.
    /// `loop` is needed for the asynchronous requests and for events.
    public init(
        interface: String, controlDirectory: String = "/run/wpa_supplicant", runtimeDirectory: String,
        requestTimeout: Duration = .seconds(3), loop: EventLoop? = nil, scheduler: (any Scheduler)? = nil
    ) throws(SystemError) {
        self.interface = interface
        self.controlPath = "\(controlDirectory)/\(interface)"
        self.runtimeDirectory = runtimeDirectory
        self.requestTimeout = requestTimeout
        self.loop = loop
        self.scheduler = scheduler ?? loop
        requests = try WPAControlSocket(controlPath: controlPath, localPath: Self.localPath(runtimeDirectory, interface, "request"))
        if let loop {
            let (directory, interface) = (runtimeDirectory, interface)
            queue = WPARequestQueue(
                loop: loop, scheduler: scheduler, controlPath: controlPath,
                localPath: { generation in Self.localPath(directory, interface, "request") + "-\(generation)" },
                timeout: requestTimeout)
        }
    }

    deinit {
        detach()
        queue?.cancelAll()
    }

    /// Sends `command` and returns its reply's bytes, blocking (see the type's
    /// note: not on a running loop). A reply left over from an earlier request
    /// that timed out is discarded first, so replies never shift. `wait`
    /// replaces `requestTimeout` for this request (a test's `.zero`: no reply
    /// already there is `noReply` at once, with no time spent).
    public func request(_ command: WPACommand, waitingUpTo wait: Duration? = nil) throws(WPAControlError) -> [UInt8] {
        queue?.cancelAll()
        let reply: [UInt8]?
        do {
            while try requests.receive() != nil {}
            try requests.send(command.bytes)
            reply = try requests.receive(waitingUpTo: wait ?? requestTimeout)
        } catch {
            throw .system(error)
        }
        guard let reply else { throw .noReply(command: command.description) }
        return reply
    }

    /// Sends `command` and expects `OK`.
    public func perform(_ command: WPACommand) throws(WPAControlError) {
        let reply = try request(command)
        do { try WPAReply.expectOK(reply) } catch { throw .reply(error, command: command.description) }
    }

    public func addNetwork() throws(WPAControlError) -> WPANetworkID {
        let reply = try request(.addNetwork)
        do { return try WPAReply.networkID(reply) } catch { throw .reply(error, command: "ADD_NETWORK") }
    }

    public func status() throws(WPAControlError) -> WPAStatus {
        let reply = try request(.status)
        do { return try WPAReply.status(reply) } catch { throw .reply(error, command: "STATUS") }
    }

    public func networks() throws(WPAControlError) -> [WPANetworkListEntry] {
        let reply = try request(.listNetworks)
        do { return try WPAReply.networkList(reply) } catch { throw .reply(error, command: "LIST_NETWORKS") }
    }

    public func ssid(of network: WPANetworkID) throws(WPAControlError) -> SSID {
        let command = WPACommand.getNetwork(network, .ssid)
        let reply = try request(command)
        do { return try WPAReply.ssidValue(reply) } catch { throw .reply(error, command: command.description) }
    }

    // MARK: On the loop

    /// Sends `command` on the loop; `completion` gets the reply, or why there is none.
    public func request(_ command: WPACommand, completion: @escaping (Result<[UInt8], WPAControlError>) -> Void) {
        guard let queue else {
            completion(.failure(.system(SystemError(operation: "\(command) without an event loop", errno: EINVAL))))
            return
        }
        queue.enqueue(command, completion: completion)
    }

    /// Sends `command` on the loop and expects `OK`.
    public func perform(_ command: WPACommand, completion: @escaping (Result<Void, WPAControlError>) -> Void) {
        request(command) { result in
            completion(result.flatMap { reply in Self.decoded(reply, command.description) { r throws(WPAReplyError) in try WPAReply.expectOK(r) } })
        }
    }

    public func addNetwork(completion: @escaping (Result<WPANetworkID, WPAControlError>) -> Void) {
        request(.addNetwork) { result in
            completion(result.flatMap { reply in Self.decoded(reply, "ADD_NETWORK") { r throws(WPAReplyError) in try WPAReply.networkID(r) } })
        }
    }

    public func networks(completion: @escaping (Result<[WPANetworkListEntry], WPAControlError>) -> Void) {
        request(.listNetworks) { result in
            completion(result.flatMap { reply in Self.decoded(reply, "LIST_NETWORKS") { r throws(WPAReplyError) in try WPAReply.networkList(r) } })
        }
    }

    private static func decoded<T>(
        _ reply: [UInt8], _ command: String, _ decode: ([UInt8]) throws(WPAReplyError) -> T
    ) -> Result<T, WPAControlError> {
        do throws(WPAReplyError) { return .success(try decode(reply)) } catch { return .failure(.reply(error, command: command)) }
    }

    /// Withdraws every request still waiting for wpa_supplicant (`cancelled`).
    public func cancelRequests() { queue?.cancelAll() }

    /// Opens the event socket, sends ATTACH and delivers each event on the
    /// client's loop from then on; `completion` says whether wpa_supplicant
    /// acknowledged it (or `noReply` after `requestTimeout`). Events may flow
    /// before the acknowledgement; they are delivered too. Datagrams that are
    /// not events are passed to `onMalformed` (for a debug log), never fatal.
    public func attach(
        onEvent: @escaping (WPAEventMessage) -> Void,
        onMalformed: @escaping (WPAEventError) -> Void = { _ in },
        completion: @escaping (Result<Void, WPAControlError>) -> Void
    ) throws(WPAControlError) {
        detach()
        guard let loop else { throw .system(SystemError(operation: "ATTACH without an event loop", errno: EINVAL)) }
        let socket: WPAControlSocket
        do {
            socket = try WPAControlSocket(controlPath: controlPath, localPath: Self.localPath(runtimeDirectory, interface, "events"))
            try socket.send(WPACommand.attach.bytes)
        } catch {
            throw .system(error)
        }
        pendingAttach = completion
        let acknowledge = { [weak self] (result: Result<Void, WPAControlError>) in self?.acknowledgeAttach(result) }
        do throws(SystemError) {
            eventWatch = try loop.watch(fd: socket.fd) { [weak self, weak socket] _ in
                guard let socket, self != nil else { return }
                // Bounded per wake-up: a flood of events cannot hold the loop.
                for _ in 0..<64 {
                    let datagram: [UInt8]?
                    do throws(SystemError) { datagram = try socket.receive() } catch {
                        acknowledge(.failure(.system(error)))
                        return
                    }
                    guard let datagram else { return }
                    if datagram.first != UInt8(ascii: "<") {
                        // A reply: the only request on this socket is ATTACH (and DETACH at the end).
                        do throws(WPAReplyError) { try WPAReply.expectOK(datagram) } catch {
                            acknowledge(.failure(.reply(error, command: "ATTACH")))
                            continue
                        }
                        acknowledge(.success(()))
                        continue
                    }
                    do throws(WPAEventError) { onEvent(try WPAEventParser.parse(datagram)) } catch { onMalformed(error) }
                }
            }
            let scheduler: any Scheduler = scheduler ?? loop
            attachDeadline = scheduler.at(scheduler.now.advanced(by: requestTimeout)) {
                acknowledge(.failure(.noReply(command: "ATTACH")))
            }
        } catch {
            if let eventWatch { loop.stopWatching(eventWatch) }
            eventWatch = nil
            throw .system(error)
        }
        events = socket
    }

    /// Stops the events: DETACH (best effort) and close. An ATTACH still
    /// unacknowledged ends with `cancelled`.
    public func detach() {
        if let eventWatch { loop?.stopWatching(eventWatch) }
        eventWatch = nil
        if let events { try? events.send(WPACommand.detach.bytes) }
        events = nil
        acknowledgeAttach(.failure(.cancelled(command: "ATTACH")))
    }

    /// Ends the ATTACH under way, once.
    private func acknowledgeAttach(_ result: Result<Void, WPAControlError>) {
        if let attachDeadline { scheduler?.cancel(attachDeadline) }
        attachDeadline = nil
        guard let done = pendingAttach else { return }
        pendingAttach = nil
        done(result)
    }

    private static func localPath(_ directory: String, _ interface: String, _ role: String) -> String {
        "\(directory)/wpa-\(interface)-\(role)-\(getpid())"
    }
}
