import AccessoryPlatform
import Glibc

/// Why an nl80211 request on the event loop got no usable answer.
public enum NL80211RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kernel answered with NLMSG_ERROR carrying this errno (EBUSY, ENODEV, EINVAL, …).
    case kernel(operation: String, errno: Int32)
    /// No complete answer before the request's deadline: the typed timeout.
    case timedOut(operation: String)
    /// Bytes that are not netlink messages where the answer should be.
    case malformedReply(operation: String)
    /// The socket failed; ENOBUFS means parts of the answer were dropped.
    case transport(SystemError)
    /// Too many requests already wait on this socket: refused, not sent.
    case queueFull(operation: String)
    /// Withdrawn before it was answered (the scanner was closed).
    case cancelled(operation: String)

    /// An errno standing for the failure, for callers that decide by errno.
    public var errno: Int32 {
        switch self {
        case .kernel(_, let errno): errno
        case .timedOut: ETIMEDOUT
        case .malformedReply: EBADMSG
        case .transport(let error): error.errno
        case .queueFull: EAGAIN
        case .cancelled: ECANCELED
        }
    }

    public var description: String {
        switch self {
        case .kernel(let operation, let errno): "\(operation): \(String(cString: strerror(errno)))"
        case .timedOut(let operation): "\(operation): no answer from the kernel in time"
        case .malformedReply(let operation): "\(operation): malformed reply"
        case .transport(let error): "\(error)"
        case .queueFull(let operation): "\(operation): too many nl80211 requests waiting"
        case .cancelled(let operation): "\(operation): withdrawn"
        }
    }
}
