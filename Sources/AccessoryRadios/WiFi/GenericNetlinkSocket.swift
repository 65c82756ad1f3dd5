import AccessoryPlatform
import CNetlink
import Glibc

/// One generic netlink socket through libnl, used for raw bytes only: requests
/// are encoded and replies decoded by the pure codecs, so libnl does the
/// socket, the family lookup and buffer sizing, and nothing else.
final class GenericNetlinkSocket: NetlinkTransport {
    private let socket: OpaquePointer

    /// A connected NETLINK_GENERIC socket.
    init() throws(SystemError) {
        guard let socket = nl_socket_alloc() else { throw SystemError(operation: "nl_socket_alloc", errno: ENOMEM) }
        let result = genl_connect(socket)
        guard result >= 0 else {
            nl_socket_free(socket)
            throw SystemError(operation: "genl_connect", errno: nlErrno(result))
        }
        // Dumps of many BSSes with their IEs exceed a page: let nl_recv peek at
        // each datagram's size and allocate what it needs.
        nl_socket_enable_msg_peek(socket)
        self.socket = socket
    }

    deinit { nl_socket_free(socket) }

    var fileDescriptor: Int32 { nl_socket_get_fd(socket) }

    /// The family's id, or nil when the kernel does not have it (no cfg80211).
    func resolveFamily(_ name: String) -> UInt16? {
        let id = genl_ctrl_resolve(socket, name)
        guard id > 0, id <= Int32(UInt16.max) else { return nil }
        return UInt16(id)
    }

    /// A multicast group's id within the family, or nil when it has none by that name.
    func resolveGroup(family: String, group: String) -> UInt32? {
        let id = genl_ctrl_resolve_grp(socket, family, group)
        return id > 0 ? UInt32(id) : nil
    }

    /// For a socket that only listens: multicast messages carry sequence 0.
    func listen(to groups: [UInt32]) throws(SystemError) {
        nl_socket_disable_seq_check(socket)
        for group in groups {
            let result = nl_socket_add_membership(socket, Int32(group))
            guard result >= 0 else { throw SystemError(operation: "nl_socket_add_membership", errno: nlErrno(result)) }
        }
        // Room for bursts of events (a scan's results, many interfaces at once)
        // so the kernel does not drop them while the loop is busy.
        _ = nl_socket_set_buffer_size(socket, 1 << 20, 0)
        let result = nl_socket_set_nonblocking(socket)
        guard result >= 0 else { throw SystemError(operation: "nl_socket_set_nonblocking", errno: nlErrno(result)) }
    }

    /// For a socket that asks: its answers are read as the event loop sees
    /// them arrive (`NL80211RequestChannel`), never waited for.
    func setNonBlocking() throws(SystemError) {
        let result = nl_socket_set_nonblocking(socket)
        guard result >= 0 else { throw SystemError(operation: "nl_socket_set_nonblocking", errno: nlErrno(result)) }
    }

    func send(_ bytes: [UInt8]) throws(SystemError) {
        var bytes = bytes
        let result = bytes.withUnsafeMutableBytes { nl_sendto(socket, $0.baseAddress, $0.count) }
        guard result >= 0 else { throw SystemError(operation: "nl_sendto", errno: nlErrno(result)) }
    }

    /// One datagram from the kernel; nil when none is waiting (non-blocking).
    /// EINTR is retried by libnl.
    func receive() throws(SystemError) -> [UInt8]? {
        var peer = sockaddr_nl()
        var buffer: UnsafeMutablePointer<UInt8>?
        let count = nl_recv(socket, &peer, &buffer, nil)
        defer { free(buffer) }
        if count == -NLE_AGAIN || count == 0 { return nil }
        guard count > 0, let buffer else { throw SystemError(operation: "nl_recv", errno: nlReceiveErrno(count)) }
        // Only the kernel (port 0) speaks on these sockets; anything else is ignored.
        guard peer.nl_pid == 0 else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(count)))
    }
}

/// nl_recv's libnl error codes, mapped back to errno for the two that matter
/// here: ENOBUFS (events were lost) shows as NLE_NOMEM.
private func nlReceiveErrno(_ code: Int32) -> Int32 {
    switch -code {
    case NLE_NOMEM: ENOBUFS
    case NLE_MSG_TRUNC: EMSGSIZE
    default: nlErrno(code)
    }
}
