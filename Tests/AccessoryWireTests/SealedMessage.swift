import AccessoryWire
import CSystemd
import Glibc
@testable import AccessoryPlatform

/// A real sd-bus message, written with `BusReply` (what the daemon's and the
/// clients' encoders write into), sealed as sd-bus seals a message it sends,
/// and rewound to be read with `BusMessage` (what their decoders read from).
/// sd-bus makes messages only for a started bus: each message gets its own,
/// on one end of a socket pair, never sending anything (sd-bus objects are
/// not for sharing between threads, and tests run in parallel); the message
/// holds the last reference to it.
enum SealedMessage {
    /// A started bus and the socket pair's other end, which the caller closes.
    private static func bus() -> (bus: OpaquePointer, peer: Int32)? {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return nil }
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else {
            close(pair[0])
            close(pair[1])
            return nil
        }
        guard sd_bus_set_fd(bus, pair[0], pair[0]) >= 0, sd_bus_start(bus) >= 0 else {
            sd_bus_unref(bus)
            close(pair[1])
            return nil
        }
        return (bus, pair[1])
    }

    struct CannotBuild: Error, CustomStringConvertible {
        var description: String
    }

    /// A method call to `path`, its arguments appended by `build`.
    static func call(
        path: String = BusNames.path(ofSession: 1), interface: String = BusNames.session, member: String = "RoundTrip",
        _ build: (BusReply) -> Void
    ) throws -> BusMessage {
        try make(build) { bus, raw in sd_bus_message_new_method_call(bus, &raw, BusNames.service, path, interface, member) }
    }

    /// A signal from `path`, its arguments appended by `build`.
    static func signal(path: String, interface: String, member: String, _ build: (BusReply) -> Void) throws -> BusMessage {
        try make(build) { bus, raw in sd_bus_message_new_signal(bus, &raw, path, interface, member) }
    }

    private static func make(
        _ build: (BusReply) -> Void, _ create: (OpaquePointer, inout OpaquePointer?) -> Int32
    ) throws -> BusMessage {
        guard let (bus, peer) = bus() else { throw CannotBuild(description: "no bus on a socket pair") }
        defer {
            sd_bus_unref(bus)
            close(peer)
        }
        var raw: OpaquePointer?
        guard create(bus, &raw) >= 0, let raw else { throw CannotBuild(description: "sd-bus made no message") }
        let writer = BusReply(raw)  // owns the reference sd-bus gave
        build(writer)
        guard writer.isValid else { throw CannotBuild(description: "sd-bus refused an argument") }
        guard sd_bus_message_seal(raw, 1, 0) >= 0, sd_bus_message_rewind(raw, 1) >= 0 else {
            throw CannotBuild(description: "cannot seal the message")
        }
        return BusMessage(raw)  // a reference of its own
    }
}
