import AccessoryPlatform
import Glibc

/// `serve --control PATH`: a unix seqpacket listener through which a check
/// changes the sensor's advertising (`AirCommand`). Each connection carries
/// one command and gets one reply, sent once the controller has answered, so
/// the check knows the sensor is off (or on) the air when it goes on.
final class AirControlSocket {
    let fd: Int32
    let path: String

    init(path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path), !bytes.contains(0) else {
            throw LabError("--control: not a usable socket path: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let fd = socket(AF_UNIX, SocketType.sequencedPacket | SocketType.closeOnExec, 0)
        guard fd >= 0 else { throw SystemError.last("socket(AF_UNIX, SOCK_SEQPACKET)") }
        unlink(path)  // left by an earlier run
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            let error = SystemError.last("bind/listen(\(path))")
            close(fd)
            throw error
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next connection and its one command's text (waited for up to 5 s);
    /// nil when the connection went away without one.
    func accept() -> (connection: Int32, text: String)? {
        let connection = Glibc.accept(fd, nil, nil)  // lab-peripheral runs nothing else: no close-on-exec needed
        guard connection >= 0 else { return nil }
        guard (try? Readiness.wait(for: .readable, on: [connection], timeoutMilliseconds: 5000))?.isEmpty == false else {
            close(connection)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) } }
        guard count > 0 else {
            close(connection)
            return nil
        }
        return (connection, String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// Answers the connection's command and closes it.
    static func reply(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = retryingOnInterrupt { bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        close(connection)
    }
}
