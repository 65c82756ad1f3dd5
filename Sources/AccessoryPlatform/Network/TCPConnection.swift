import AccessoryCore
import Glibc

/// A blocking TCP connection to an IPv4 address, every read bounded by a
/// timeout: what an app uses to talk to its accessory once joined to the
/// accessory's hotspot (whose service has an address, not a name).
public final class TCPConnection {
    public let fd: Int32

    /// Connects to `address`:`port`; reads give up after `receiveTimeoutSeconds`.
    /// Errors name the call (`socket`, `connect <address>:<port>`).
    public init(to address: IPv4Address, port: UInt16, receiveTimeoutSeconds: Int = 10) throws(SystemError) {
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = port.bigEndian
        let octets = address.octets
        // sin_addr is in network order: the first octet first in memory.
        withUnsafeMutableBytes(of: &peer.sin_addr) { raw in
            (raw[0], raw[1], raw[2], raw[3]) = (octets.0, octets.1, octets.2, octets.3)
        }
        fd = socket(AF_INET, SocketType.stream | SocketType.closeOnExec, 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Not retried on EINTR: the connection then goes on being made, and a
        // second connect would only say EALREADY.
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = SystemError.last("connect \(address):\(port)")
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes`.
    public func send(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let sent = retryingOnInterrupt { bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, 0) } }
            guard sent > 0 else { throw SystemError.last("send") }
            offset += sent
        }
    }

    /// Everything the peer sends until it closes the connection.
    public func receiveToEnd() throws(SystemError) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            if count == 0 { return received }
            guard count > 0 else { throw SystemError.last("recv") }
            received += buffer[0..<count]
        }
    }
}
