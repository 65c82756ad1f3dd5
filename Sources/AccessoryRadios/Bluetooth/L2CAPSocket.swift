import AccessoryCore
import AccessoryPlatform
import CBluetooth
import Glibc

/// The syscalls of an L2CAP LE socket (SOCK_SEQPACKET, BTPROTO_L2CAP): one
/// socket per channel; each read or write is one SDU (for ATT, one PDU).
/// Takes only the kernel's ABI from BlueZ's headers.
public enum L2CAPSocket {
    /// A new non-blocking, close-on-exec socket bound to `controller`'s
    /// address on the LE transport (the ATT CID for `.attribute`, as the
    /// kernel wants both ends of an ATT socket to name it).
    public static func bound(
        controller: BluetoothAddress, kind: L2CAPChannelKind
    ) throws(L2CAPConnectionError) -> Int32 {
        let fd = socket(
            AF_BLUETOOTH, SocketType.sequencedPacket | SocketType.closeOnExec | SocketType.nonBlocking,
            BTPROTO_L2CAP)
        guard fd >= 0 else { throw L2CAPConnectionError(operation: "socket(BTPROTO_L2CAP)", errno: errno) }
        var local = address(controller, type: UInt8(BDADDR_LE_PUBLIC), kind: kind, includePSM: false)
        guard withSockaddr(&local, { bind(fd, $0, $1) }) == 0 else {
            let error = L2CAPConnectionError(operation: "bind(\(controller))", errno: errno)
            close(fd)
            throw error
        }
        return fd
    }

    /// Starts connecting a bound non-blocking socket. Returns true when the
    /// connection is already up, false when it is under way (EINPROGRESS: wait
    /// for the socket to become writable, then `pendingError`).
    public static func startConnect(
        fd: Int32, peer: BluetoothDeviceIdentifier, kind: L2CAPChannelKind
    ) throws(L2CAPConnectionError) -> Bool {
        var remote = address(peer.address, type: addressType(peer.addressType), kind: kind, includePSM: true)
        if retryingOnInterrupt({ withSockaddr(&remote) { connect(fd, $0, $1) } }) == 0 { return true }
        switch errno {
        case EINPROGRESS, EAGAIN: return false
        case let code: throw L2CAPConnectionError(operation: "connect(\(peer))", errno: code)
        }
    }

    /// SO_ERROR: nil once the connection is up, else why it failed.
    public static func pendingError(fd: Int32) -> L2CAPConnectionError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
            return L2CAPConnectionError(operation: "getsockopt(SO_ERROR)", errno: errno)
        }
        return code == 0 ? nil : L2CAPConnectionError(operation: "connect", errno: code)
    }

    /// A socket listening on `controller` for incoming LE connections on the
    /// ATT fixed channel or a PSM (for the lab's peripheral). Blocking.
    public static func listening(controller: BluetoothAddress, kind: L2CAPChannelKind) throws(SystemError) -> Int32 {
        let fd = socket(AF_BLUETOOTH, SocketType.sequencedPacket | SocketType.closeOnExec, BTPROTO_L2CAP)
        guard fd >= 0 else { throw SystemError.last("socket(BTPROTO_L2CAP)") }
        var local = address(controller, type: UInt8(BDADDR_LE_PUBLIC), kind: kind, includePSM: true)
        guard withSockaddr(&local, { bind(fd, $0, $1) }) == 0 else {
            let error = SystemError.last("bind(\(controller), \(kind))")
            close(fd)
            throw error
        }
        guard listen(fd, 4) == 0 else {
            let error = SystemError.last("listen")
            close(fd)
            throw error
        }
        return fd
    }

    /// Accepts one connection on a listening socket: the new fd and the peer.
    public static func accept(listener: Int32) throws(SystemError) -> (fd: Int32, peer: BluetoothDeviceIdentifier?) {
        var remote = sockaddr_l2()
        var length = socklen_t(MemoryLayout<sockaddr_l2>.size)
        let fd = retryingOnInterrupt {
            withUnsafeMutablePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
        }
        guard fd >= 0 else { throw SystemError.last("accept") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let address = withUnsafeBytes(of: remote.l2_bdaddr.b) { BluetoothAddress(littleEndianOctets: $0) }
        let type: BluetoothAddressType = remote.l2_bdaddr_type == UInt8(BDADDR_LE_RANDOM) ? .random : .public
        return (fd, address.map { BluetoothDeviceIdentifier(address: $0, addressType: type) })
    }

    /// Ends a channel for every holder of the socket, the app's duplicate
    /// too: shutdown reaches the socket itself, where close alone would only
    /// drop this process's reference. Then closes this process's descriptor.
    public static func disconnect(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    /// Closes a socket nobody else holds (a connection no longer wanted).
    public static func close(_ fd: Int32) { Glibc.close(fd) }

    /// The kernel's LE address type for a peer's identity.
    static func addressType(_ type: BluetoothAddressType) -> UInt8 {
        switch type {
        case .public, .publicIdentity: UInt8(BDADDR_LE_PUBLIC)
        case .random, .randomIdentity: UInt8(BDADDR_LE_RANDOM)
        }
    }

    /// A sockaddr_l2. A PSM goes only into the remote address (or a
    /// listener's); binding a connecting socket to a PSM would claim it.
    private static func address(
        _ address: BluetoothAddress, type: UInt8, kind: L2CAPChannelKind, includePSM: Bool
    ) -> sockaddr_l2 {
        var result = sockaddr_l2()
        result.l2_family = sa_family_t(AF_BLUETOOTH)
        let octets = address.littleEndianOctets
        result.l2_bdaddr.b = (octets[0], octets[1], octets[2], octets[3], octets[4], octets[5])
        result.l2_bdaddr_type = type
        switch kind {
        case .attribute: result.l2_cid = L2CAPChannelKind.attributeCID.littleEndian
        case .psm(let psm): result.l2_psm = includePSM ? psm.littleEndian : 0
        }
        return result
    }

    private static func withSockaddr(
        _ address: inout sockaddr_l2, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_l2>.size)) }
        }
    }
}
