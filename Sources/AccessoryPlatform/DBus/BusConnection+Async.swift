import CSystemd
import Glibc

extension BusConnection {
    /// The connection's socket (tests: how many bytes wait unread on it).
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Calls a method without waiting: `completion` runs on the loop when
    /// the reply, an error, or the timeout comes (or the connection closes).
    /// What a daemon must use for any call to a peer or the bus daemon, so
    /// that a peer that does not answer holds up nobody else.
    public func callAsync(
        destination: String, path: String, interface: String, member: String, timeout: Duration = .seconds(25),
        _ build: (BusReply) -> Void = { _ in }, completion: @escaping (Result<BusMessage, BusError>) -> Void
    ) {
        let call: BusReply
        do { call = try methodCall(destination: destination, path: path, interface: interface, member: member, build) } catch {
            completion(.failure(error))
            return
        }
        let box = Unmanaged.passRetained(PendingCall(completion))
        let (seconds, attoseconds) = timeout.components
        let usec = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
        // A floating slot (nil): sd-bus frees it after the one callback.
        let result = sd_bus_call_async(bus, nil, call.message, { reply, userdata, error in
            guard let userdata else { return 0 }
            let pending = Unmanaged<PendingCall>.fromOpaque(userdata).takeRetainedValue()
            guard let reply else {
                pending.completion(.failure(BusError(name: "org.freedesktop.DBus.Error.Failed", message: "no reply")))
                return 0
            }
            if sd_bus_message_is_method_error(reply, nil) > 0, let failure = sd_bus_message_get_error(reply) {
                pending.completion(.failure(BusError(name: failure.pointee.name.map { String(cString: $0) } ?? "",
                                                     message: failure.pointee.message.map { String(cString: $0) } ?? "")))
            } else {
                pending.completion(.success(BusMessage(reply)))
            }
            return 0
        }, box.toOpaque(), usec)
        if result < 0 {
            box.release()
            completion(.failure(BusError(name: "org.freedesktop.DBus.Error.Failed",
                                         message: "\(member): \(SystemError(operation: "sd_bus_call_async", errno: -result))")))
        }
    }

    /// Answers `call` with what a handler decided later (`.deferred` first):
    /// a reply, an error, or UnknownMethod for nil.
    public func finish(_ call: BusMessage, with outcome: MethodOutcome?) {
        switch outcome {
        case .reply(let reply)?: send(reply)
        case .error(let error)?: sendError(error, to: call)
        case .deferred?: break
        case nil:
            sendError(BusError(name: "org.freedesktop.DBus.Error.UnknownMethod",
                               message: "no method \(call.member ?? "") on \(call.interface ?? "") at \(call.path ?? "")"), to: call)
        }
    }
}

private final class PendingCall {
    let completion: (Result<BusMessage, BusError>) -> Void
    init(_ completion: @escaping (Result<BusMessage, BusError>) -> Void) { self.completion = completion }
}
