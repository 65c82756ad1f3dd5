import AccessoryPlatform
import Glibc
import Testing
@testable import AccessoryRadios

/// How an HCI socket's packets are read for the scan, on a datagram socket
/// pair standing in for the kernel: each packet's type apart and its bytes
/// over the last one's, whatever their lengths, until none is waiting.
@Suite struct HCISocketReceiveTests {
    @Test func eachPacketReplacesTheLastAndNoneWaitingIsNil() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, SocketType.sequencedPacket | SocketType.nonBlocking, 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: HCISocket.packetCapacity, alignment: 1)
        defer { scratch.deallocate() }
        let sent: [[UInt8]] = [
            [0x04, 0x3E, 0x05, 0x02, 0x01, 0x03, 0x01, 0xAA],  // an event
            [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00],  // a command, shorter
            [0x04],  // a type alone
            [0x04] + [UInt8](repeating: 0x5A, count: 300),  // longer than any before
        ]
        for datagram in sent { #expect(write(fds[1], datagram, datagram.count) == datagram.count) }

        var packet: [UInt8] = [0xFF, 0xFF]
        var received: [[UInt8]] = []
        while let type = try HCISocket.receive(from: fds[0], into: &packet, scratch: scratch) {
            received.append([type] + packet)
        }
        #expect(received == sent)
        #expect(try HCISocket.receive(from: fds[0], into: &packet, scratch: scratch) == nil)
    }

    @Test func aLongerDatagramIsCutAtTheCapacity() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, SocketType.sequencedPacket | SocketType.nonBlocking, 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: HCISocket.packetCapacity, alignment: 1)
        defer { scratch.deallocate() }
        let datagram = [0x02] + [UInt8](repeating: 7, count: HCISocket.packetCapacity + 10)
        #expect(write(fds[1], datagram, datagram.count) == datagram.count)
        var packet: [UInt8] = []
        #expect(try HCISocket.receive(from: fds[0], into: &packet, scratch: scratch) == 0x02)
        #expect(packet == [UInt8](repeating: 7, count: HCISocket.packetCapacity - 1))
    }

    @Test func aReadErrorIsThrown() throws {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
        defer { scratch.deallocate() }
        var packet: [UInt8] = []
        #expect(throws: SystemError.self) { try HCISocket.receive(from: -1, into: &packet, scratch: scratch) }
    }
}
