import AccessoryPlatform
import Glibc

/// Why an L2CAP LE connection could not be made, from the errno the kernel
/// gave (bind, connect, or SO_ERROR once the attempt ended) or from the
/// connector's own timeout.
public enum L2CAPConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer (or its L2CAP layer) refused: ECONNREFUSED, e.g. no one on that
    /// PSM, or the controller rejected the connection for limited resources.
    case refused
    /// The peer could not be reached: EHOSTDOWN, EHOSTUNREACH; also a
    /// controller that is down (the kernel finds no route through it).
    case unreachable
    /// No connection within the connector's deadline, or the kernel's own (ETIMEDOUT).
    case timedOut
    /// The controller to connect from does not exist (ENODEV, EADDRNOTAVAIL on bind).
    case noSuchController
    /// The controller has no room for another connection (EMLINK: Connection Limit Exceeded).
    case connectionLimitExceeded
    /// The channel or controller is taken (EBUSY: e.g. the peer's ATT channel is
    /// already open on that link, as bluetoothd opens it on every LE link; EALREADY:
    /// the controller is busy with another connection attempt).
    case busy
    /// The link went away while connecting (ECONNRESET, ECONNABORTED, ENOTCONN).
    case aborted
    /// The process may not open Bluetooth sockets (EACCES, EPERM).
    case notPermitted
    /// Anything else, with the call and errno.
    case system(operation: String, errno: Int32)

    /// The named error for an errno from `operation`.
    public init(operation: String, errno code: Int32) {
        switch code {
        case ECONNREFUSED: self = .refused
        case EHOSTDOWN, EHOSTUNREACH, ENETUNREACH: self = .unreachable
        case ETIMEDOUT: self = .timedOut
        case ENODEV, EADDRNOTAVAIL: self = .noSuchController
        case EMLINK: self = .connectionLimitExceeded
        case EBUSY, EALREADY: self = .busy
        case ECONNRESET, ECONNABORTED, ENOTCONN, EPIPE: self = .aborted
        case EACCES, EPERM: self = .notPermitted
        default: self = .system(operation: operation, errno: code)
        }
    }

    public var description: String {
        switch self {
        case .refused: "connection refused"
        case .unreachable: "host down or unreachable"
        case .timedOut: "connection timed out"
        case .noSuchController: "no such controller"
        case .connectionLimitExceeded: "the controller's connection limit is exceeded"
        case .busy: "channel or controller busy"
        case .aborted: "connection aborted"
        case .notPermitted: "not permitted"
        case .system(let operation, let code): "\(operation): \(String(cString: strerror(code)))"
        }
    }
}
