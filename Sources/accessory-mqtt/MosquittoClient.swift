import AccessoryMQTT
import AccessoryPlatform
import CMosquitto
import Glibc

/// libmosquitto's client, driven from the app's event loop: its socket is
/// watched by the loop (readable always, writable while it has something to
/// send), and `loop_read`/`loop_write`/`loop_misc` are called from there.
/// No `mosquitto_loop_start`: libmosquitto starts no thread, and its
/// callbacks run inside those calls, on the loop's thread.
final class MosquittoClient {
    /// The broker's answer to CONNECT (0: accepted), or the connection ending (with libmosquitto's error).
    var onConnect: (Int32) -> Void = { _ in }
    var onDisconnect: (Int32) -> Void = { _ in }
    var onMessage: (String, String) -> Void = { _, _ in }
    /// libmosquitto's own error lines (OpenSSL's reasons for a failed handshake come this way).
    var onLogError: (String) -> Void = { _ in }

    private let handle: OpaquePointer
    private let loop: EventLoop
    private var source: SocketEventSource?
    private var watchingWrites = false
    private var watchedSocket: Int32 = -1

    /// EPOLLIN, which Glibc's Swift module leaves out.
    private static let readable: UInt32 = 0x001

    static let initialized: Void = { _ = mosquitto_lib_init() }()

    init(clientID: String, loop: EventLoop) throws(BridgeFailure) {
        _ = Self.initialized
        guard let handle = mosquitto_new(clientID, true, nil) else { throw BridgeFailure("mosquitto_new failed (out of memory or a bad client id)") }
        self.handle = handle
        self.loop = loop
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, user, rc in MosquittoClient.from(user).onConnect(rc) }
        mosquitto_disconnect_callback_set(handle) { _, user, rc in
            let client = MosquittoClient.from(user)
            client.unwatch()
            client.onDisconnect(rc)
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)), as: UTF8.self)
            } ?? ""
            MosquittoClient.from(user).onMessage(String(cString: topic), payload)
        }
        mosquitto_log_callback_set(handle) { _, user, level, text in
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
            MosquittoClient.from(user).onLogError(String(cString: text))
        }
    }

    deinit {
        unwatch()
        mosquitto_destroy(handle)
    }

    /// The last will, credentials and TLS: before the first connect.
    func configure(
        _ configuration: BridgeConfiguration, credentials: BrokerCredentials?, will: Publication
    ) throws(BridgeFailure) {
        var rc = mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, 1, will.retain)
        try check(rc, "setting the last will")
        if let credentials {
            rc = mosquitto_username_pw_set(handle, credentials.username, credentials.password)
            try check(rc, "setting the user name")
        }
        if let ca = configuration.caFile {
            rc = mosquitto_tls_set(handle, ca, nil, configuration.certificateFile, configuration.keyFile, nil)
            try check(rc, "TLS with CAFile=\(ca)" + (configuration.certificateFile.map { " CertificateFile=\($0)" } ?? ""))
        }
    }

    /// Starts connecting without holding up the loop: libmosquitto's
    /// connect resolves the broker's name with getaddrinfo, which may wait on
    /// DNS for seconds, so `mosquitto_connect_async` (or the reconnect) runs
    /// on a worker thread, and `then` gets its result on the loop, through
    /// `inbox`; the TCP connect and TLS handshake then complete on the loop.
    /// Until `then` runs, the loop must not use the client (nothing is
    /// published while not connected, `BridgeCore`), so the handle is never
    /// used from two threads at once.
    func startConnecting(host: String, port: Int, keepAlive: Duration, again: Bool, inbox: Inbox) -> Int32 {
        unwatch()
        let job = ConnectJob(handle: handle, host: host, port: Int32(port), keepAlive: Int32(keepAlive.components.seconds), again: again)
        do throws(SystemError) {
            try DetachedThread.start {
                let rc = job.run()
                // errno is the worker's own: described here, not on the loop.
                inbox.post(.connectStarted(rc, rc == MOSQ_ERR_SUCCESS.rawValue ? "" : Self.describe(rc)))
            }
        } catch {
            return MOSQ_ERR_ERRNO.rawValue
        }
        return MOSQ_ERR_SUCCESS.rawValue
    }

    /// On the loop, once the worker's connect returned: watches the socket if it started.
    func connectStarted(_ rc: Int32) {
        if rc == MOSQ_ERR_SUCCESS.rawValue { watch() }
    }

    /// What the worker needs to connect; the handle is not touched on the
    /// loop meanwhile (see `startConnecting`), hence `@unchecked`.
    private struct ConnectJob: @unchecked Sendable {
        let handle: OpaquePointer
        let host: String
        let port: Int32
        let keepAlive: Int32
        let again: Bool

        func run() -> Int32 {
            again ? mosquitto_reconnect_async(handle) : mosquitto_connect_async(handle, host, port, keepAlive)
        }
    }

    @discardableResult
    func publish(_ publication: Publication) -> Int32 {
        let rc = mosquitto_publish(
            handle, nil, publication.topic, Int32(publication.payload.utf8.count), publication.payload, 1, publication.retain)
        updateWriteInterest()
        return rc
    }

    func subscribe(_ topic: String) {
        _ = mosquitto_subscribe(handle, nil, topic, 1)
        updateWriteInterest()
    }

    /// A clean end: the broker does not send the last will.
    func disconnect() {
        _ = mosquitto_disconnect(handle)
        // Flush what can go without waiting; the socket is non-blocking.
        for _ in 0..<8 where mosquitto_want_write(handle) {
            if mosquitto_loop_write(handle, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
        }
    }

    /// Keep-alive pings and timeouts; the loop calls it every few seconds while connected.
    func misc() {
        _ = mosquitto_loop_misc(handle)
        updateWriteInterest()
    }

    static func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
    }

    static func describeConnack(_ rc: Int32) -> String { String(cString: mosquitto_connack_string(rc)) }

    // MARK: The socket on the loop

    /// One sd-event source for the socket (sd-event takes one per
    /// descriptor), remade with EPOLLOUT added while libmosquitto has
    /// something to send, and without once it is sent.
    private func watch() {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return }
        if socket != watchedSocket { unwatch() }
        watchedSocket = socket
        updateWriteInterest()
    }

    private func updateWriteInterest() {
        guard watchedSocket >= 0, mosquitto_socket(handle) == watchedSocket else { return }
        let wants = mosquitto_want_write(handle)
        guard source == nil || wants != watchingWrites else { return }
        source?.cancel()
        watchingWrites = wants
        do {
            source = try SocketEventSource(
                loop: loop, fd: watchedSocket, events: Self.readable | (wants ? SocketEventSource.writable : 0)
            ) { [unowned self] events in ready(events) }
        } catch {
            // Only a broken loop fails here: end the connection, the reconnect tries again.
            onLogError("cannot watch the broker's socket: \(error)")
            source = nil
            lost(MOSQ_ERR_ERRNO.rawValue)
        }
    }

    private func ready(_ events: UInt32) {
        if events & SocketEventSource.writable != 0 {
            let rc = mosquitto_loop_write(handle, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return lost(rc) }
        }
        // Readable, or an error or hang-up (sent whatever the mask), which a read reports.
        if events & ~SocketEventSource.writable != 0 {
            let rc = mosquitto_loop_read(handle, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return lost(rc) }
        }
        updateWriteInterest()
    }

    /// The source goes before the descriptor can be reused.
    private func unwatch() {
        source?.cancel()
        source = nil
        watchedSocket = -1
    }

    /// A read or write failed. libmosquitto closed the socket and called
    /// the disconnect callback when it knew; when it did not (a connect
    /// refused before any packet), it is said here, once.
    private func lost(_ rc: Int32) {
        guard watchedSocket >= 0 else { return }
        unwatch()
        onDisconnect(rc)
    }

    private func check(_ rc: Int32, _ what: String) throws(BridgeFailure) {
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw BridgeFailure("\(what): \(Self.describe(rc))")
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> MosquittoClient {
        Unmanaged<MosquittoClient>.fromOpaque(user!).takeUnretainedValue()
    }
}

/// What stops the bridge, said in one line.
struct BridgeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
