import CSystemd
import Glibc

/// A method call whose reply has not come yet; `cancel()` withdraws it (the
/// completion is then never called).
public final class PendingBusCall {
    fileprivate var slot: OpaquePointer?
    fileprivate var completion: ((Result<BusMessage, BusError>) -> Void)?

    fileprivate init(_ completion: @escaping (Result<BusMessage, BusError>) -> Void) { self.completion = completion }

    public var isPending: Bool { completion != nil }

    public func cancel() {
        guard completion != nil else { return }
        completion = nil
        finish()
    }

    /// Drops the slot and the reference the call held on itself.
    fileprivate func finish() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        Unmanaged.passUnretained(self).release()
    }
}

extension BusConnection {
    /// Calls a method without waiting: the reply (or the error, or the
    /// timeout sd-bus arms on the event loop's clock) comes to `completion`
    /// on the loop, never from inside this call. A peer that never answers
    /// costs nothing but the timer: the loop goes on serving. `autoStart`
    /// false: a destination nobody owns is an error at once, never activated.
    @discardableResult
    public func callAsync(
        destination: String, path: String, interface: String, member: String,
        timeout: Duration, autoStart: Bool = true, _ build: (BusReply) -> Void = { _ in },
        completion: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws(BusError) -> PendingBusCall {
        var message: OpaquePointer?
        let made = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard made >= 0, let message else { throw .invalidArguments("cannot call \(member) on \(path)") }
        if !autoStart { _ = sd_bus_message_set_auto_start(message, 0) }
        let call = BusReply(message)
        build(call)
        guard call.isValid else { throw .invalidArguments("cannot build the arguments of \(member)") }
        let pending = PendingBusCall(completion)
        // Held until the reply, the timeout or `cancel()`.
        let context = Unmanaged.passRetained(pending).toOpaque()
        let (seconds, attoseconds) = timeout.components
        let usec = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
        var slot: OpaquePointer?
        let result = sd_bus_call_async(bus, &slot, call.message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            let pending = Unmanaged<PendingBusCall>.fromOpaque(userdata).takeUnretainedValue()
            guard let completion = pending.completion else { return 0 }
            pending.completion = nil
            let message = BusMessage(reply)
            pending.finish()
            if let error = message.error { completion(.failure(error)) } else { completion(.success(message)) }
            return 0
        }, context, usec)
        guard result >= 0, let slot else {
            Unmanaged<PendingBusCall>.fromOpaque(context).release()
            throw BusError(name: "org.freedesktop.DBus.Error.Failed",
                           message: "\(member): \(SystemError(operation: "sd_bus_call_async", errno: -result))")
        }
        pending.slot = slot
        return pending
    }

    /// Like `onSignal`, but the match can be removed again (`cancel()` on the
    /// returned token): a join follows its own objects' signals only while it lasts.
    public func watchSignal(
        sender: String?, path: String? = nil, interface: String, member: String? = nil,
        _ handler: @escaping (BusMessage) -> Void
    ) throws(SystemError) -> SignalWatch {
        let watch = SignalWatch(handler)
        var slot: OpaquePointer?
        let result = sd_bus_match_signal(bus, &slot, sender, path, interface, member, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<SignalWatch>.fromOpaque(userdata).takeUnretainedValue().deliver(BusMessage(message))
            return 0
        }, Unmanaged.passUnretained(watch).toOpaque())
        guard result >= 0, let slot else { throw SystemError(operation: "sd_bus_match_signal(\(interface))", errno: -result) }
        watch.slot = slot
        return watch
    }
}

/// A signal match that lasts until `cancel()` or until it is released.
public final class SignalWatch {
    fileprivate var slot: OpaquePointer?
    private var handler: ((BusMessage) -> Void)?

    fileprivate init(_ handler: @escaping (BusMessage) -> Void) { self.handler = handler }

    fileprivate func deliver(_ message: BusMessage) { handler?(message) }

    public func cancel() {
        handler = nil
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }

    deinit { cancel() }
}

extension BusMessage {
    /// Skips the next argument(s) of `types` (a variant whose value is not wanted, say).
    public func skip(_ types: String) throws(BusError) {
        guard sd_bus_message_skip(message, types) >= 0 else { throw .invalidArguments("cannot skip \(types)") }
    }

    /// The type and contents of the next argument (`v` and `s` for a variant holding a string).
    public func peekType() -> (type: Character, contents: String)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        return (Character(UnicodeScalar(UInt8(bitPattern: type))), contents.map { String(cString: $0) } ?? "")
    }
}
