import Glibc

/// Blocking I/O on a connected SOCK_SEQPACKET socket (an L2CAP channel
/// accessoryd handed over, a lab central's): one write sends one packet, one
/// read takes one, with a deadline for the wait. Holds the descriptor, does
/// not own it.
public struct PacketSocket: Sendable {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The channel ended (read returned 0, or the socket was shut down).
        case closed
        case timedOut
        case system(String, Int32)

        public var description: String {
            switch self {
            case .closed: "channel closed"
            case .timedOut: "no answer"
            case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Sends `bytes` as one packet.
    public func send(_ bytes: [UInt8]) throws(Failure) {
        let written = retryingOnInterrupt { bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        if written == bytes.count { return }
        if written < 0 && (errno == EPIPE || errno == ENOTCONN || errno == ECONNRESET) { throw .closed }
        throw .system("write", written < 0 ? errno : EIO)
    }

    /// The next packet; `.closed` at the end of the channel, `.timedOut` when
    /// none came within `timeoutSeconds` (0: only one already waiting).
    public func receive(timeoutSeconds: Int32 = 10) throws(Failure) -> [UInt8] {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = retryingOnInterrupt { poll(&descriptor, 1, timeoutSeconds * 1000) }
        if ready < 0 { throw .system("poll", errno) }
        if ready == 0 { throw .timedOut }
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { throw .closed }
            switch errno {
            case EAGAIN: continue
            case ENOTCONN, ECONNRESET, EPIPE, ESHUTDOWN: throw .closed
            case let code: throw .system("read", code)
            }
        }
    }
}
