import CSystemd
import Glibc

/// A connection to a D-Bus bus through sd-bus, dispatched by the daemon's
/// event loop. Objects are served through one message handler per path
/// prefix, so the agent's interfaces are plain Swift (no C vtables).
public final class BusConnection {
    /// Handles a method call; return nil when the call is not for you
    /// (sd-bus then answers UnknownMethod/UnknownObject).
    public typealias MethodHandler = (BusMessage, BusConnection) -> MethodOutcome?

    public enum MethodOutcome {
        case reply(BusReply)
        case error(BusError)
        /// The answer comes later, through `send(_:)` or `sendError(_:to:)`
        /// (a hotspot join takes seconds; the loop must not wait for it).
        case deferred
    }

    let bus: OpaquePointer
    private var handlers: [String: MethodHandler] = [:]
    private var slots: [OpaquePointer] = []
    /// What to do when a peer leaves, by its unique name.
    private var peerHandlers: [String: () -> Void] = [:]
    /// The one match for peers leaving (`watchDepartures`), once installed.
    private var departures: OpaquePointer?
    private var signalHandlers: [Unmanaged<SignalHandler>] = []
    /// Told of every peer that leaves the bus (after `watchDepartures`),
    /// watched or not: for caches keyed by unique name.
    public var anyPeerLeft: ((String) -> Void)?

    private final class SignalHandler {
        let handler: (BusMessage) -> Void
        init(_ handler: @escaping (BusMessage) -> Void) { self.handler = handler }
    }

    /// The system bus, or a bus at `address` (a private bus in tests);
    /// dispatched by `loop`, or by `process(timeout:)` without one.
    public init(address: String? = nil, loop: EventLoop?) throws(SystemError) {
        var bus: OpaquePointer?
        var result: Int32
        if let address {
            result = sd_bus_new(&bus)
            if result >= 0 { result = sd_bus_set_address(bus, address) }
            if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
            if result >= 0 { result = sd_bus_start(bus) }
        } else {
            result = sd_bus_open_system(&bus)
        }
        guard result >= 0, let bus else {
            throw SystemError(operation: address.map { "sd_bus_start(\($0))" } ?? "sd_bus_open_system", errno: -result)
        }
        self.bus = bus
        if let loop {
            result = sd_bus_attach_event(bus, loop.event, 0)
            guard result >= 0 else { throw SystemError(operation: "sd_bus_attach_event", errno: -result) }
        }
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        for handler in signalHandlers { handler.release() }
        sd_bus_flush_close_unref(bus)
    }

    /// Claims a well-known name (the D-Bus policy decides who may).
    public func requestName(_ name: String) throws(SystemError) {
        let result = sd_bus_request_name(bus, name, 0)
        guard result >= 0 else { throw SystemError(operation: "sd_bus_request_name(\(name))", errno: -result) }
    }

    /// This connection's unique name (`:1.42`).
    public var uniqueName: String? {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Serves every method call to `path` and, with `subtree`, to paths below it.
    public func serve(path: String, subtree: Bool = false, _ handler: @escaping MethodHandler) throws(SystemError) {
        var slot: OpaquePointer?
        let context = Unmanaged.passUnretained(self).toOpaque()
        let callback: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
            return connection.dispatch(message)
        }
        let result = subtree
            ? sd_bus_add_fallback(bus, &slot, path, callback, context)
            : sd_bus_add_object(bus, &slot, path, callback, context)
        guard result >= 0, let slot else { throw SystemError(operation: "sd_bus_add_object(\(path))", errno: -result) }
        slots.append(slot)
        handlers[path] = handler
    }

    /// A method return for `call`, to fill in and hand back as `.reply`.
    public func reply(to call: BusMessage) -> BusReply? {
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(call.message, &reply) >= 0, let reply else { return nil }
        return BusReply(reply)
    }

    /// Emits `member` of `interface` from `path`, with `build` appending the arguments.
    /// With `destination`, a unicast signal: only that peer receives it, which
    /// is how one app's events never reach another.
    public func emitSignal(
        path: String, interface: String, member: String, destination: String? = nil, _ build: (BusReply) -> Void
    ) throws(SystemError) {
        var message: OpaquePointer?
        var result = sd_bus_message_new_signal(bus, &message, path, interface, member)
        guard result >= 0, let message else { throw SystemError(operation: "sd_bus_message_new_signal", errno: -result) }
        let signal = BusReply(message)
        if let destination { result = sd_bus_message_set_destination(message, destination) }
        build(signal)
        guard result >= 0, signal.isValid else { throw SystemError(operation: "building \(member)", errno: EINVAL) }
        result = sd_bus_send(bus, message, nil)
        guard result >= 0 else { throw SystemError(operation: "sd_bus_send(\(member))", errno: -result) }
    }

    /// Calls a method and waits for its reply (a client's call: accessoryctl,
    /// the AccessorySetup library). An error reply is thrown as `BusError`.
    public func call(
        destination: String, path: String, interface: String, member: String,
        timeout: Duration = .seconds(25), _ build: (BusReply) -> Void = { _ in }
    ) throws(BusError) -> BusMessage {
        let call = try methodCall(destination: destination, path: path, interface: interface, member: member, build)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let (seconds, attoseconds) = timeout.components
        let usec = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
        let result = sd_bus_call(bus, call.message, usec, &error, &reply)
        guard result >= 0, let reply else {
            if sd_bus_error_is_set(&error) != 0 {
                throw BusError(name: error.name.map { String(cString: $0) } ?? "",
                               message: error.message.map { String(cString: $0) } ?? "")
            }
            throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "\(member): \(SystemError(operation: "sd_bus_call", errno: -result))")
        }
        return BusMessage(adopting: reply)
    }

    /// Sends a method call without waiting for, or wanting, a reply: how the
    /// daemon tells a picker agent about requests, so a slow or stuck agent
    /// never holds the daemon up.
    public func send(
        destination: String, path: String, interface: String, member: String, _ build: (BusReply) -> Void
    ) throws(BusError) {
        let call = try methodCall(destination: destination, path: path, interface: interface, member: member, build)
        _ = sd_bus_message_set_expect_reply(call.message, 0)
        let result = sd_bus_send(bus, call.message, nil)
        guard result >= 0 else {
            throw BusError(name: "org.freedesktop.DBus.Error.Failed", message: "\(member): \(SystemError(operation: "sd_bus_send", errno: -result))")
        }
    }

    func methodCall(
        destination: String, path: String, interface: String, member: String, _ build: (BusReply) -> Void
    ) throws(BusError) -> BusReply {
        var message: OpaquePointer?
        let result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw .invalidArguments("cannot call \(member) on \(path)") }
        let call = BusReply(message)
        build(call)
        guard call.isValid else { throw .invalidArguments("cannot build the arguments of \(member)") }
        return call
    }

    /// Calls `handler` for every signal `member` of `interface` that reaches
    /// this connection (broadcast from `sender`, or unicast to it).
    public func onSignal(
        sender: String?, path: String? = nil, interface: String, member: String? = nil,
        _ handler: @escaping (BusMessage) -> Void
    ) throws(SystemError) {
        var slot: OpaquePointer?
        let box = Unmanaged.passRetained(SignalHandler(handler))
        let result = sd_bus_match_signal(bus, &slot, sender, path, interface, member, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<SignalHandler>.fromOpaque(userdata).takeUnretainedValue().handler(BusMessage(message))
            return 0
        }, box.toOpaque())
        guard result >= 0, let slot else {
            box.release()
            throw SystemError(operation: "sd_bus_match_signal(\(interface))", errno: -result)
        }
        slots.append(slot)
        signalHandlers.append(box)
    }

    /// Calls `handler` once this connection to the bus is gone, whatever the
    /// cause: the bus daemon went away or dropped us, or sd-bus closed it
    /// itself (as it does when an asynchronously installed match fails; see
    /// `watchDepartures`). sd-bus synthesizes
    /// `org.freedesktop.DBus.Local.Disconnected`, which is what this catches;
    /// nothing is sent to the bus daemon for it (a local match).
    public func onDisconnected(_ handler: @escaping () -> Void) throws(SystemError) {
        try onSignal(sender: nil, path: "/org/freedesktop/DBus/Local", interface: "org.freedesktop.DBus.Local",
                     member: "Disconnected") { _ in handler() }
    }

    /// Processes what the bus has received, without the event loop: for
    /// clients that wait on the bus alone. Returns whether anything was done.
    public func process(timeout: Duration) -> Bool {
        let done = sd_bus_process(bus, nil)
        if done > 0 { return true }
        let (seconds, attoseconds) = timeout.components
        _ = sd_bus_wait(bus, UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000))
        return sd_bus_process(bus, nil) > 0
    }

    /// Calls `handler` once when the peer that sent `message` leaves the bus
    /// (disconnects or crashes). Watching the same peer again is a no-op.
    /// Call `watchDepartures()` before serving: a peer that leaves before
    /// the watch is installed is not seen.
    public func whenSenderLeaves(_ message: BusMessage, _ handler: @escaping () -> Void) throws(SystemError) {
        guard let sender = message.sender, peerHandlers[sender] == nil else { return }
        try watchDepartures()
        peerHandlers[sender] = handler
    }

    /// Installs, once and synchronously, the one match that tells this
    /// connection of every peer leaving the bus (NameOwnerChanged with no
    /// new owner). Not sd_bus_track: it installs one match per peer, each
    /// asynchronously, and sd-bus closes the whole connection when such an
    /// install fails, whether the bus daemon refused it (its limit of
    /// match rules per connection, 512 on a system bus) or its answer came
    /// after the 25 s timeout because the loop was held up. One match
    /// installed at start can fail only at start, where it is reported.
    public func watchDepartures() throws(SystemError) {
        guard departures == nil else { return }
        var slot: OpaquePointer?
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''"
        let result = sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
            let signal = BusMessage(message)
            // (name, old owner, new owner): a unique name owned by itself and now by no one is a peer gone.
            guard let name = try? signal.readString(), let old = try? signal.readString(),
                let new = try? signal.readString(), new.isEmpty, old == name
            else { return 0 }
            connection.peerLeft(name)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let slot else { throw SystemError(operation: "sd_bus_add_match(NameOwnerChanged)", errno: -result) }
        departures = slot
        slots.append(slot)
    }

    /// Who sent `message`, as the bus daemon vouches for it (without its
    /// groups: `groups(of:)` costs one more call to the bus daemon).
    public func credentials(of message: BusMessage) throws(BusError) -> CallerCredentials {
        try CallerCredentials(message)
    }

    private func peerLeft(_ sender: String) {
        anyPeerLeft?(sender)
        peerHandlers.removeValue(forKey: sender)?()
    }

    private func dispatch(_ raw: OpaquePointer) -> Int32 {
        let message = BusMessage(raw)
        guard sd_bus_message_is_method_call(raw, nil, nil) > 0,
            let path = message.path
        else { return 0 }
        // The most specific registered path that is the call's path or above it.
        let handler = handlers.filter { path == $0.key || path.hasPrefix($0.key == "/" ? "/" : $0.key + "/") }
            .max { $0.key.count < $1.key.count }?.value
        guard let outcome = handler?(message, self) else { return 0 }
        switch outcome {
        case .reply(let reply):
            return sd_bus_send(bus, reply.message, nil) >= 0 ? 1 : 0
        case .error(let error):
            sendError(error, to: message)
            return 1
        case .deferred:
            return 1
        }
    }

    /// Sends a reply built for a call answered `.deferred`.
    public func send(_ reply: BusReply) {
        _ = sd_bus_send(bus, reply.message, nil)
    }

    /// Answers `call` with an error (for calls answered `.deferred`).
    public func sendError(_ error: BusError, to call: BusMessage) {
        var busError = sd_bus_error()
        sd_bus_error_set(&busError, error.name, error.message)
        defer { sd_bus_error_free(&busError) }
        _ = sd_bus_reply_method_error(call.message, &busError)
    }
}
