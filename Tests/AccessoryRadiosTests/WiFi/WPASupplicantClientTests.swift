import AccessoryCodecs
import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Foundation
import Glibc
import Testing
import TestSupport

/// A stand-in for wpa_supplicant's control socket: answers each request with the
/// next canned reply, to the address it came from, as wpa_supplicant does.
private final class FakeControlSocket: @unchecked Sendable {
    let fd: Int32
    let path: String
    private(set) var received: [[UInt8]] = []
    private let lock = NSLock()

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, SocketType.datagram, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(result == 0)
    }

    deinit { close(fd); unlink(path) }

    /// Answers `replies.count` requests (nil: stay silent for that one), on a thread.
    func serve(_ replies: [[UInt8]?]) -> Thread {
        let thread = Thread { [self] in
            for reply in replies {
                var buffer = [UInt8](repeating: 0, count: 4096)
                var from = sockaddr_un()
                var length = socklen_t(MemoryLayout<sockaddr_un>.size)
                let count = withUnsafeMutablePointer(to: &from) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                        buffer.withUnsafeMutableBytes { recvfrom(fd, $0.baseAddress, $0.count, 0, address, &length) }
                    }
                }
                guard count >= 0 else { return }
                lock.withLock { received.append(Array(buffer[0..<count])) }
                guard let reply else { continue }
                _ = withUnsafePointer(to: &from) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                        reply.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, address, length) }
                    }
                }
            }
        }
        thread.start()
        return thread
    }

    var requests: [String] { lock.withLock { received.map { String(decoding: $0, as: UTF8.self) } } }
}

@Suite("wpa_supplicant control client", .serialized)
struct WPASupplicantClientTests {
    /// The control and runtime directory: the fake server's socket and the client's.
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("wpa-client")
    }

    @Test("requests go from a socket bound in the runtime directory and get their replies")
    func requestReply() throws {
        let dir = scratch.path
        let server = try FakeControlSocket(path: "\(dir)/wlan9")
        let thread = server.serve([Array("0\n".utf8), Array("OK\n".utf8), Array("FAIL\n".utf8)])
        let client = try WPASupplicantClient(interface: "wlan9", controlDirectory: dir, runtimeDirectory: dir)
        let network = try client.addNetwork()
        #expect(network.rawValue == 0)
        try client.perform(.setNetwork(network, .psk(try WPAPassphrase("secret passphrase"))))
        #expect(throws: WPAControlError.reply(.failed(detail: nil), command: "SELECT_NETWORK 0")) {
            try client.perform(.selectNetwork(network))
        }
        while thread.isExecuting { usleep(1000) }
        #expect(server.requests == ["ADD_NETWORK", "SET_NETWORK 0 psk \"secret passphrase\"", "SELECT_NETWORK 0"])
        // The client's own socket lives in the runtime directory, not in /tmp's root or elsewhere.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).contains { $0.hasPrefix("wpa-wlan9-request-") })
    }

    @Test("no reply within the timeout is a named error, and the next request still works")
    func timeout() throws {
        let dir = scratch.path
        let server = try FakeControlSocket(path: "\(dir)/wlan9")
        let thread = server.serve([nil, Array("PONG\n".utf8)])
        let client = try WPASupplicantClient(interface: "wlan9", controlDirectory: dir, runtimeDirectory: dir)
        // The server never answers STATUS: a wait of zero reaches the end of
        // the wait at once, so the timeout is tested without spending it.
        #expect(throws: WPAControlError.noReply(command: "STATUS")) { try client.request(.status, waitingUpTo: .zero) }
        try WPAReply.expectPong(try client.request(.ping))
        while thread.isExecuting { usleep(1000) }
    }

    @Test("no wpa_supplicant: a system error naming connect")
    func noSupplicant() throws {
        let dir = scratch.path
        #expect(throws: SystemError.self) {
            _ = try WPASupplicantClient(interface: "wlan9", controlDirectory: dir, runtimeDirectory: dir)
        }
    }
}
