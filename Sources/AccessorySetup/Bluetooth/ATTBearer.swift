import AccessoryATT
import AccessoryPlatform

/// ATT PDUs over a connected L2CAP socket, blocking with a deadline per PDU:
/// one packet on the SOCK_SEQPACKET socket is one PDU. `GATTClient`'s; only
/// its `Failure` is public, as the reason inside `GATTClient.Failure.bearer`.
public struct ATTBearer: Sendable {
    let socket: PacketSocket

    init(fd: Int32) { socket = PacketSocket(fd: fd) }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The channel ended (read returned 0, or the socket was shut down).
        case closed
        case timedOut
        case system(String, Int32)
        case malformed(ATTDecodingError)

        init(_ failure: PacketSocket.Failure) {
            switch failure {
            case .closed: self = .closed
            case .timedOut: self = .timedOut
            case .system(let call, let code): self = .system(call, code)
            }
        }

        public var description: String {
            switch self {
            case .closed: PacketSocket.Failure.closed.description
            case .timedOut: PacketSocket.Failure.timedOut.description
            case .system(let call, let code): PacketSocket.Failure.system(call, code).description
            case .malformed(let error): "malformed PDU: \(error)"
            }
        }
    }

    func send(_ pdu: ATTPDU) throws(Failure) { try send(pdu.encoded) }

    func send(_ bytes: [UInt8]) throws(Failure) {
        do { try socket.send(bytes) } catch { throw Failure(error) }
    }

    /// The next PDU's bytes; `.closed` at the end of the channel.
    func receiveBytes(timeoutSeconds: Int32 = 10) throws(Failure) -> [UInt8] {
        do { return try socket.receive(timeoutSeconds: timeoutSeconds) } catch { throw Failure(error) }
    }

    /// Sends a request and returns its response, answering anything the
    /// peer sends meanwhile (its own requests are not supported here).
    func request(_ pdu: ATTPDU) throws(Failure) -> ATTPDU {
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
