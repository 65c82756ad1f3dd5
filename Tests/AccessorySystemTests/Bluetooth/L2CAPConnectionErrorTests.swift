import AccessoryCore
import Glibc
import Testing
@testable import AccessorySystem

@Suite struct L2CAPConnectionErrorTests {
    @Test(arguments: [
        (ECONNREFUSED, L2CAPConnectionError.refused), (EHOSTDOWN, .unreachable), (EHOSTUNREACH, .unreachable),
        (ETIMEDOUT, .timedOut), (ENODEV, .noSuchController), (EADDRNOTAVAIL, .noSuchController),
        (EMLINK, .connectionLimitExceeded), (EBUSY, .busy), (EALREADY, .busy), (ECONNRESET, .aborted),
        (EPERM, .notPermitted), (EACCES, .notPermitted),
    ])
    func errnoMapsToItsNamedReason(code: Int32, expected: L2CAPConnectionError) {
        #expect(L2CAPConnectionError(operation: "connect", errno: code) == expected)
    }

    @Test func otherErrnosKeepTheCallAndCode() {
        let error = L2CAPConnectionError(operation: "socket(BTPROTO_L2CAP)", errno: EAFNOSUPPORT)
        #expect(error == .system(operation: "socket(BTPROTO_L2CAP)", errno: EAFNOSUPPORT))
        #expect(error.description.hasPrefix("socket(BTPROTO_L2CAP): "))
    }

    @Test func peersParseAsOperatorsTypeThem() {
        let address = BluetoothAddress("00:AA:01:01:00:01")!
        #expect(BluetoothDeviceIdentifier(parsing: "00:AA:01:01:00:01")
            == BluetoothDeviceIdentifier(address: address, addressType: .public))
        #expect(BluetoothDeviceIdentifier(parsing: "00:aa:01:01:00:01/random")
            == BluetoothDeviceIdentifier(address: address, addressType: .random))
        #expect(BluetoothDeviceIdentifier(parsing: "00:AA:01:01:00:01/public")?.addressType == .public)
        for bad in ["", "00:AA:01:01:00", "00:AA:01:01:00:01/static", "00:AA:01:01:00:01/random/x", "/random"] {
            #expect(BluetoothDeviceIdentifier(parsing: bad) == nil, "\(bad)")
        }
    }
}

/// The broker watches the sockets it handed out for their end only: data for
/// the app must not wake the daemon, a hang-up must.
@Suite(.serialized) struct SocketEventSourceTests {
    @Test func hangUpMaskIgnoresDataAndSeesTheEnd() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, SocketType.sequencedPacket, 0, &fds) == 0)
        defer { close(fds[0]) }
        var wakes: [UInt32] = []
        let source = try SocketEventSource(loop: loop, fd: fds[0], events: SocketEventSource.hangUp) { wakes.append($0) }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        _ = loop.runOnce(timeout: .milliseconds(50))
        #expect(wakes.isEmpty)
        close(fds[1])
        for _ in 0..<20 where wakes.isEmpty { _ = loop.runOnce(timeout: .milliseconds(100)) }
        // EPOLLRDHUP, or EPOLLHUP (0x10), which epoll reports whatever the mask.
        #expect(wakes.first.map { $0 & (SocketEventSource.hangUp | 0x10) != 0 } == true)
        source.cancel()
        source.cancel()  // twice is harmless
    }
}
