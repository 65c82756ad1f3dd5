import AccessoryPlatform  // SocketType: see its comment
import Glibc

/// A plain HTTP/1.0 GET over TCP, as an app would fetch a page from its
/// accessory once joined to its hotspot. Only `http://a.b.c.d:port/path`:
/// an accessory's setup service has an address, not a name.
enum HTTPGet {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The response body.
    static func fetch(_ url: String) throws(Failure) -> String {
        guard url.hasPrefix("http://") else { throw Failure(description: "\(url): only http:// URLs") }
        let rest = url.dropFirst("http://".count)
        let hostPort = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(hostPort.count)
        let parts = hostPort.split(separator: ":")
        guard parts.count <= 2, let port = parts.count == 2 ? UInt16(parts[1]) : 80 else {
            throw Failure(description: "\(url): bad host or port")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, String(parts[0]), &address.sin_addr) == 1 else {
            throw Failure(description: "\(url): the host must be an IPv4 address")
        }
        let fd = socket(AF_INET, SocketType.stream | SocketType.closeOnExec, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect \(hostPort): \(String(cString: strerror(errno)))") }
        let request = Array("GET \(path.isEmpty ? "/" : path) HTTP/1.0\r\nHost: \(hostPort)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw Failure(description: "send: \(String(cString: strerror(errno)))")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1."), let status = text.split(separator: " ").dropFirst().first, status == "200" else {
            throw Failure(description: "\(url): \(text.prefix { $0 != "\r" })")
        }
        // The body follows the first empty line.
        let separator = Array("\r\n\r\n".utf8)
        guard let start = response.indices.first(where: { response[$0...].starts(with: separator) }) else { return "" }
        return String(decoding: response[(start + separator.count)...], as: UTF8.self)
    }
}
