import AccessoryCodecs
import AccessoryPlatform

/// Why a request to wpa_supplicant did not get the answer it needed. The
/// command is kept as its redacted description: safe to log.
public enum WPAControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket itself failed (wpa_supplicant not running: connect gives ENOENT or ECONNREFUSED).
    case system(SystemError)
    /// No reply within the request's timeout: the typed timeout of a request.
    case noReply(command: String)
    /// Too many requests already waiting for this wpa_supplicant: refused, not queued.
    case queueFull(command: String)
    /// Withdrawn before it was answered (the client was closed or its requests cancelled).
    case cancelled(command: String)
    /// A reply that says no, or cannot be read.
    case reply(WPAReplyError, command: String)

    public var description: String {
        switch self {
        case .system(let error): "wpa_supplicant control socket: \(error)"
        case .noReply(let command): "wpa_supplicant did not answer \(command)"
        case .queueFull(let command): "too many requests wait for wpa_supplicant; \(command) was not sent"
        case .cancelled(let command): "\(command) was withdrawn before wpa_supplicant answered"
        case .reply(let error, let command): "wpa_supplicant refused \(command): \(error)"
        }
    }
}
