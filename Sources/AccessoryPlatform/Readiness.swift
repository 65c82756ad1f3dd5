import Glibc

/// A blocking wait for descriptors to become ready, for tools that have no
/// event loop (the lab's peripheral). The daemon never blocks like this: its
/// descriptors are watched by `EventLoop`.
public enum Readiness {
    public enum Interest: Sendable {
        case readable, writable

        var events: Int16 { Int16(self == .readable ? POLLIN : POLLOUT) }
    }

    /// Which of `descriptors` are ready for `interest` (or have an error or a
    /// hang-up to report) within `timeoutMilliseconds`; -1 waits for ever.
    /// Empty when the time ran out.
    public static func wait(
        for interest: Interest, on descriptors: [Int32], timeoutMilliseconds: Int32
    ) throws(SystemError) -> [Int32] {
        var entries = descriptors.map { pollfd(fd: $0, events: interest.events, revents: 0) }
        let ready = retryingOnInterrupt { poll(&entries, nfds_t(entries.count), timeoutMilliseconds) }
        guard ready >= 0 else { throw SystemError.last("poll") }
        return entries.filter { $0.revents != 0 }.map(\.fd)
    }
}
