import CSystemd
import Glibc

/// An sd-event I/O source on the daemon's loop with an event mask of the
/// caller's choosing: EPOLLOUT for a connect to complete, EPOLLRDHUP to
/// notice a socket hang up without waking for its data. `EventLoop.watch`
/// covers the readable case only.
///
/// The source lives until `cancel()` or deinit; the caller keeps owning the fd.
public final class SocketEventSource {
    private var source: OpaquePointer?
    private let handler: (UInt32) -> Void

    public init(loop: EventLoop, fd: Int32, events: UInt32, handler: @escaping (UInt32) -> Void) throws(SystemError) {
        self.handler = handler
        var source: OpaquePointer?
        let result = sd_event_add_io(loop.event, &source, fd, events, { _, _, revents, userdata in
            guard let userdata else { return 0 }
            Unmanaged<SocketEventSource>.fromOpaque(userdata).takeUnretainedValue().handler(revents)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let source else { throw SystemError(operation: "sd_event_add_io", errno: -result) }
        self.source = source
    }

    /// Stops the source; safe to call from its own handler and more than once.
    public func cancel() {
        guard let source else { return }
        self.source = nil
        sd_event_source_disable_unref(source)
    }

    deinit { cancel() }

    /// Connect completed (or failed: errors and hang-ups come whatever the mask).
    public static let writable = UInt32(EPOLLOUT.rawValue)
    /// Only the end of a socket: the peer's hang-up, a shutdown, an error;
    /// never its data, which belongs to whoever reads it.
    public static let hangUp = UInt32(EPOLLRDHUP.rawValue)
}
