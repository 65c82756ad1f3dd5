import Glibc

/// Wakes an `EventLoop` from other threads: how work is handed to a loop's
/// thread without polling. A pipe (Glibc's module has no eventfd), both ends
/// non-blocking and close-on-exec; wake-ups before the loop gets to them
/// make one call.
public final class EventLoopWakeup: Sendable {
    /// The loop watches this end; `wake()` writes to the other.
    let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemError.last("pipe") }
        (readEnd, writeEnd) = (fds[0], fds[1])
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// From any thread; never blocks. A full pipe (EAGAIN) is fine: the loop
    /// has wake-ups pending already.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// On the loop's thread, before the work: wake-ups after this call again.
    func consume() {
        var drained = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &drained, drained.count) == drained.count {}
    }
}

extension EventLoop {
    /// Calls `handler` on the loop after `wakeup` was woken (once for any
    /// number of wake-ups since the last call). The loop keeps `wakeup` open
    /// while it watches it.
    @discardableResult
    public func watch(_ wakeup: EventLoopWakeup, _ handler: @escaping () -> Void) throws(SystemError) -> WatchToken {
        try watch(fd: wakeup.readEnd) { _ in
            wakeup.consume()
            handler()
        }
    }
}
