import Glibc

/// A unix datagram socket bound to a path, standing in for a daemon's control
/// socket (wpa_supplicant's): tests watch `fd` on their event loop, read what
/// the client sent with `receive()`, and answer with `reply(_:to:)`, or never
/// answer at all: the stalled peer. Non-blocking; removed with its path.
public final class UnixDatagramPeer {
    public let fd: Int32
    public let path: String

    public struct Datagram {
        public let bytes: [UInt8]
        /// The sender's bound path, to answer to.
        public let sender: String
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PeerError.failed("socket", errno) }
        var address = Self.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw PeerError.failed("bind", errno)
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    public enum PeerError: Error { case failed(String, Int32) }

    /// The next datagram waiting, if any.
    public func receive() -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var from = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let count = withUnsafeMutablePointer(to: &from) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                buffer.withUnsafeMutableBytes { recvfrom(fd, $0.baseAddress, $0.count, 0, address, &length) }
            }
        }
        guard count >= 0 else { return nil }
        let sender = withUnsafeBytes(of: from.sun_path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return Datagram(bytes: Array(buffer[0..<count]), sender: sender)
    }

    /// Sends `bytes` to the socket bound at `path`; false if nobody is there any more.
    @discardableResult
    public func reply(_ bytes: [UInt8], to path: String) -> Bool {
        var address = Self.address(path)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, address, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        return sent == bytes.count
    }

    @discardableResult
    public func reply(_ text: String, to path: String) -> Bool { reply(Array(text.utf8), to: path) }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return address
    }
}
