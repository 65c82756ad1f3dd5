import AccessoryPlatform
import Glibc

/// One client end of wpa_supplicant's control interface: a unix datagram
/// socket bound to a path of its own (wpa_supplicant answers to that address),
/// connected to `<control directory>/<interface>`. Non-blocking; the bound path
/// is removed when the socket is closed.
public final class WPAControlSocket {
    public let fd: Int32
    public let localPath: String
    public let controlPath: String

    public init(controlPath: String, localPath: String) throws(SystemError) {
        let fd = socket(AF_UNIX, SocketType.datagram | SocketType.closeOnExec | SocketType.nonBlocking, 0)
        guard fd >= 0 else { throw SystemError.last("socket(AF_UNIX, SOCK_DGRAM)") }
        // A socket file left by a previous run under the same name would make bind fail.
        unlink(localPath)
        do throws(SystemError) {
            try Self.withAddress(localPath) { address, length throws(SystemError) in
                guard bind(fd, address, length) == 0 else { throw SystemError.last("bind(\(localPath))") }
            }
            try Self.withAddress(controlPath) { address, length throws(SystemError) in
                guard connect(fd, address, length) == 0 else { throw SystemError.last("connect(\(controlPath))") }
            }
        } catch {
            close(fd)
            unlink(localPath)
            throw error
        }
        self.fd = fd
        self.localPath = localPath
        self.controlPath = controlPath
    }

    deinit {
        close(fd)
        unlink(localPath)
    }

    public func send(_ bytes: [UInt8]) throws(SystemError) {
        let sent = retryingOnInterrupt { bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } }
        guard sent >= 0 else { throw SystemError.last("send(\(controlPath))") }
    }

    /// One datagram if one is waiting; nil if none is (EAGAIN).
    public func receive() throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
        if count >= 0 { return Array(buffer[0..<count]) }
        if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
        throw SystemError.last("recv(\(controlPath))")
    }

    /// Waits up to `timeout` for a datagram; nil when none came in time.
    public func receive(waitingUpTo timeout: Duration) throws(SystemError) -> [UInt8]? {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = retryingOnInterrupt { poll(&descriptor, 1, milliseconds) }
        if ready > 0 { return try receive() }
        if ready == 0 { return nil }
        throw SystemError.last("poll(\(controlPath))")
    }

    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Void
    ) throws(SystemError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw SystemError(operation: "unix socket path \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        try withUnsafePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try body(address, length)
            }
        }
    }
}
