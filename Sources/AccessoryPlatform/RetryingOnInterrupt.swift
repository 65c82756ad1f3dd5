import Glibc

/// Calls `call` again for as long as a signal interrupts it: it returned -1
/// with errno EINTR. The event loop blocks the signals it handles, but a
/// child's SIGCHLD, a debugger or a thread without that mask can still cut a
/// blocking call short, and such a call has not failed. The one place this
/// retry is written; any other result (and its errno) is the caller's.
@inline(__always)
public func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
