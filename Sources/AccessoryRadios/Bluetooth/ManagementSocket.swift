import AccessoryPlatform
import CBluetooth
import Glibc

/// The kernel's Bluetooth management channel (HCI_CHANNEL_CONTROL): the
/// interface bluetoothd itself uses. Every management socket receives every
/// event (New Settings, Index Added), so bluetoothd sees what accessoryd
/// changes and the other way round. Commands that change a controller need
/// CAP_NET_ADMIN when the socket is bound. Non-blocking, for the event loop.
public final class ManagementSocket {
    public let fd: Int32

    public init() throws(SystemError) {
        let fd = socket(AF_BLUETOOTH, SocketType.raw | SocketType.closeOnExec | SocketType.nonBlocking, BTPROTO_HCI)
        guard fd >= 0 else { throw SystemError.last("socket(BTPROTO_HCI)") }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = ManagementPacket.noController
        address.hci_channel = UInt16(HCI_CHANNEL_CONTROL)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size))
            }
        }
        guard bound == 0 else {
            let error = SystemError.last("bind(HCI_CHANNEL_CONTROL)")
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { close(fd) }

    public func send(_ packet: [UInt8]) throws(SystemError) {
        let written = retryingOnInterrupt { packet.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        if written == packet.count { return }
        if written < 0 { throw SystemError.last("write(HCI_CHANNEL_CONTROL)") }
        throw SystemError(operation: "write(HCI_CHANNEL_CONTROL): short write", errno: EIO)
    }

    /// The next packet, or nil when none is waiting.
    public func receive() throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        if count >= 0 { return Array(buffer[0..<count]) }
        if errno == EAGAIN { return nil }
        throw SystemError.last("read(HCI_CHANNEL_CONTROL)")
    }
}
