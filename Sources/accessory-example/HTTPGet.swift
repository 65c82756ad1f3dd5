import AccessoryCore
import AccessoryPlatform

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
        guard let host = IPv4Address(parts[0]) else {
            throw Failure(description: "\(url): the host must be an IPv4 address")
        }
        let request = Array("GET \(path.isEmpty ? "/" : path) HTTP/1.0\r\nHost: \(hostPort)\r\n\r\n".utf8)
        let response: [UInt8]
        do {
            let connection = try TCPConnection(to: host, port: port)
            try connection.send(request)
            response = try connection.receiveToEnd()
        } catch {
            throw Failure(description: "\(error)")
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
