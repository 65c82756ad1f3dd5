import Glibc

/// One short note to a listening unix stream socket, without ever waiting:
/// connect (non-blocking), send, close. Made for an app's wake socket: the
/// connection waits in the socket's backlog, with the note, until the
/// service systemd starts for it accepts; accessoryd is long gone by then.
/// A full backlog (EAGAIN), a refusal (nobody listens: systemd gave up on
/// the socket) or a missing path is an error, which the caller backs off on.
public enum UnixStreamNote {
    /// At most this much: a note fits the socket's buffer, so `send` never
    /// has to wait for the reader.
    public static let maximumLength = 4096

    public static func send(_ note: [UInt8], to path: String) throws(SystemError) {
        guard note.count <= maximumLength else { throw SystemError(operation: "send(\(path)): note too long", errno: EMSGSIZE) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !pathBytes.isEmpty, pathBytes.count < capacity else {
            throw SystemError(operation: "connect(\(path))", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, SocketType.stream | SocketType.closeOnExec | SocketType.nonBlocking, 0)
        guard fd >= 0 else { throw SystemError.last("socket(AF_UNIX, SOCK_STREAM)") }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw SystemError.last("connect(\(path))") }
        var offset = 0
        while offset < note.count {
            let sent = retryingOnInterrupt {
                note.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            guard sent > 0 else { throw SystemError.last("send(\(path))") }
            offset += sent
        }
    }
}
