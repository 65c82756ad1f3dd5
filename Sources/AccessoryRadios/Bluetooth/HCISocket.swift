import AccessoryPlatform
import CBluetooth
import Glibc

/// A raw HCI socket: commands out, events in, as H4 packets (a packet-type
/// octet, then the HCI packet). Non-blocking, for the event loop.
///
/// The raw channel shares the controller with the kernel and bluetoothd and
/// sees every event the controller sends, whoever asked for it; the user
/// channel takes the controller away from both, for a dedicated adapter.
public final class HCISocket {
    public enum Channel: Sendable {
        /// Shared with the kernel's own use of the controller (HCI_CHANNEL_RAW).
        case raw
        /// Exclusive (HCI_CHANNEL_USER); the controller must be down, and the
        /// kernel keeps its hands off until the socket closes.
        case user
    }

    /// HCI_DEV_NONE: a socket bound to no controller, for the stack's device events.
    public static let noController: UInt16 = 0xFFFF

    /// H4 packet types, for `setFilter`.
    public static let commandPacketType: UInt8 = 0x01
    public static let eventPacketType: UInt8 = 0x04

    /// A raw socket bound to no controller that receives only the kernel's
    /// device events (controllers registered, removed, up, down), as
    /// stack-internal events (0xFD).
    public static func deviceEvents() throws(SystemError) -> HCISocket {
        let socket = try HCISocket(controller: noController, channel: .raw)
        try socket.setFilter(packetTypes: [eventPacketType], events: [0xFD])
        return socket
    }

    public let controllerIndex: UInt16
    public let channel: Channel
    public let fd: Int32
    /// Where `receive(into:)` reads each packet: allocated once, for the
    /// stream of reports a scan brings, once the socket is bound (a failed
    /// open leaks nothing).
    private let scratch: UnsafeMutableRawBufferPointer
    /// The longest packet read; longer datagrams are cut, as before.
    static let packetCapacity = 2048

    public init(controller: UInt16, channel: Channel = .raw) throws(SystemError) {
        let fd = socket(
            AF_BLUETOOTH, SocketType.raw | SocketType.closeOnExec | SocketType.nonBlocking,
            BTPROTO_HCI)
        guard fd >= 0 else { throw SystemError.last("socket(BTPROTO_HCI)") }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = controller
        address.hci_channel = UInt16(channel == .raw ? HCI_CHANNEL_RAW : HCI_CHANNEL_USER)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size))
            }
        }
        guard bound == 0 else {
            let error = SystemError.last("bind(hci\(controller))")
            close(fd)
            throw error
        }
        self.fd = fd
        self.controllerIndex = controller
        self.channel = channel
        scratch = .allocate(byteCount: Self.packetCapacity, alignment: 1)
    }

    deinit {
        close(fd)
        scratch.deallocate()
    }

    /// Lets only these packet types and event codes through (raw channel;
    /// the user channel delivers everything). Event codes above 63 share
    /// bits with lower ones, as in the kernel's own filter.
    public func setFilter(packetTypes: [UInt8], events: [UInt8]) throws(SystemError) {
        var filter = hci_filter()
        for type in packetTypes { filter.type_mask |= 1 << UInt32(type & 31) }
        for event in events {
            let bit = event & 63
            if bit < 32 { filter.event_mask.0 |= 1 << UInt32(bit) } else { filter.event_mask.1 |= 1 << UInt32(bit - 32) }
        }
        guard setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) == 0 else {
            throw SystemError.last("setsockopt(HCI_FILTER)")
        }
    }

    /// Writes one H4 packet (for a command: 0x01, opcode, length, parameters).
    public func send(_ packet: [UInt8]) throws(SystemError) {
        let written = retryingOnInterrupt { packet.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        if written == packet.count { return }
        if written < 0 { throw SystemError.last("write(hci\(controllerIndex))") }
        throw SystemError(operation: "write(hci\(controllerIndex)): short write", errno: EIO)
    }

    /// The next packet, or nil when none is waiting.
    public func receive() throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 2048)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        if count >= 0 { return Array(buffer[0..<count]) }
        if errno == EAGAIN { return nil }
        throw SystemError.last("read(hci\(controllerIndex))")
    }

    /// The next packet's H4 type octet, with the packet after it written over
    /// `packet`, whose storage is reused: a scan's stream of reports costs no
    /// allocation here. Nil when no packet (or an empty datagram) is waiting.
    public func receive(into packet: inout [UInt8]) throws(SystemError) -> UInt8? {
        do {
            return try Self.receive(from: fd, into: &packet, scratch: scratch)
        } catch {
            throw SystemError(operation: "read(hci\(controllerIndex))", errno: error.errno)
        }
    }

    /// `receive(into:)` on any datagram descriptor (the tests use a socket pair).
    static func receive(
        from fd: Int32, into packet: inout [UInt8], scratch: UnsafeMutableRawBufferPointer
    ) throws(SystemError) -> UInt8? {
        let count = retryingOnInterrupt { read(fd, scratch.baseAddress, scratch.count) }
        if count < 0 {
            if errno == EAGAIN { return nil }
            throw SystemError.last("read")
        }
        guard count > 0 else { return nil }
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[1..<count]))
        return scratch[0]
    }

    /// Waits up to `timeout` for a packet to read. Only for the last words at
    /// exit, after the event loop has stopped; the loop itself never blocks.
    public func waitReadable(timeout: Duration) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000)
        return retryingOnInterrupt { poll(&descriptor, 1, milliseconds) } > 0
    }

    /// HCIDEVUP/HCIDEVDOWN on a controller, through any HCI socket.
    public static func setPower(controller: UInt16, up: Bool) throws(SystemError) {
        let fd = socket(AF_BLUETOOTH, SocketType.raw | SocketType.closeOnExec, BTPROTO_HCI)
        guard fd >= 0 else { throw SystemError.last("socket(BTPROTO_HCI)") }
        defer { close(fd) }
        let result = ioctl(fd, up ? accessory_HCIDEVUP : accessory_HCIDEVDOWN, Int32(controller))
        // Already in the wanted state is success.
        if result < 0 && errno != EALREADY {
            throw SystemError.last(up ? "ioctl(HCIDEVUP, hci\(controller))" : "ioctl(HCIDEVDOWN, hci\(controller))")
        }
    }
}
