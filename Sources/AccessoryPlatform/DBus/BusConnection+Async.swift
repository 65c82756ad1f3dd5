import CSystemd
import Glibc

extension BusConnection {
    /// The connection's socket (tests: how many bytes wait unread on it).
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

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
