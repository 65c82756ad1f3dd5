import Glibc

/// A DNS server on a loopback address that keeps every query it receives and
/// answers none of them until told to: a name service that hangs, as one
/// does when the network's resolver is gone. `answer(address:)` then answers
/// each kept query (A: the address; AAAA and others: no records).
final class SilentNameServer {
    let address: String
    private let fd: Int32
    private var queries: [(packet: [UInt8], from: sockaddr_in)] = []

    init(address: String = "127.0.0.77") throws {
        self.address = address
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_port = in_port_t(53).bigEndian
        inet_pton(AF_INET, address, &local.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw BrokerError("cannot listen for DNS on \(address):53: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// The queries received so far (read without waiting).
    var received: Int {
        var buffer = [UInt8](repeating: 0, count: 1500)
        while true {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &length) }
            }
            guard count >= 12 else { break }
            queries.append((Array(buffer[0..<count]), from))
        }
        return queries.count
    }

    /// Answers every query kept: an A record with `address` for A, no record otherwise.
    func answer(address: String) {
        _ = received
        var ipv4 = in_addr()
        inet_pton(AF_INET, address, &ipv4)
        let addressBytes = withUnsafeBytes(of: &ipv4) { Array($0) }
        for (query, from) in queries {
            // The question: QNAME's labels up to the zero byte, then QTYPE and QCLASS.
            var end = 12
            while end < query.count, query[end] != 0 { end += Int(query[end]) + 1 }
            guard end + 5 <= query.count else { continue }
            let question = Array(query[12...(end + 4)])
            let isA = query[end + 1] == 0 && query[end + 2] == 1
            var reply = Array(query[0..<2]) + [0x81, 0x80, 0, 1, 0, isA ? 1 : 0, 0, 0, 0, 0] + question
            if isA { reply += [0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4] + addressBytes }
            var to = from
            _ = withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, reply, reply.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        queries.removeAll()
    }
}
