import AccessoryCodecs
import Glibc

/// ATT PDUs over a connected L2CAP socket, blocking with a deadline per PDU:
/// one read is one PDU on a SOCK_SEQPACKET socket.
public struct ATTBearer: Sendable {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The channel ended (read returned 0, or the socket was shut down).
        case closed
        case timedOut
        case system(String, Int32)
        case malformed(ATTDecodingError)

        public var description: String {
            switch self {
            case .closed: "channel closed"
            case .timedOut: "no answer"
            case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
            case .malformed(let error): "malformed PDU: \(error)"
            }
        }
    }

    public func send(_ pdu: ATTPDU) throws(Failure) { try send(pdu.encoded) }

    public func send(_ bytes: [UInt8]) throws(Failure) {
        while true {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written == bytes.count { return }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EPIPE || errno == ENOTCONN || errno == ECONNRESET) { throw .closed }
            throw .system("write", written < 0 ? errno : EIO)
        }
    }

    /// The next PDU's bytes; `.closed` at the end of the channel.
    public func receiveBytes(timeoutSeconds: Int32 = 10) throws(Failure) -> [UInt8] {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, timeoutSeconds * 1000)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw .system("poll", errno) }
            if ready == 0 { throw .timedOut }
            break
        }
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { throw .closed }
            switch errno {
            case EINTR, EAGAIN: continue
            case ENOTCONN, ECONNRESET, EPIPE, ESHUTDOWN: throw .closed
            case let code: throw .system("read", code)
            }
        }
    }

    /// Sends a request and returns its response, answering anything the
    /// peer sends meanwhile (its own requests are not supported here).
    public func request(_ pdu: ATTPDU) throws(Failure) -> ATTPDU {
        try send(pdu)
        while true {
            let bytes = try receiveBytes()
            let answer: ATTPDU
            do { answer = try ATTPDU(decoding: bytes) } catch { throw .malformed(error) }
            switch answer {
            case .handleValueNotification: continue
            case .handleValueIndication: try send(.handleValueConfirmation)
            case .exchangeMTURequest, .readRequest, .readByTypeRequest, .readByGroupTypeRequest,
                .findInformationRequest, .writeRequest:
                try send(.errorResponse(requestOpcode: answer.opcode.rawValue, handle: 0, error: .requestNotSupported))
            default: return answer
            }
        }
    }
}
