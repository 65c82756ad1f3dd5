import AccessoryPlatform

/// A datagram socket that carries netlink messages: the kernel's generic
/// netlink socket in the daemon, a socket pair in tests, where the other end
/// plays the kernel with the same bytes. Non-blocking.
protocol NetlinkTransport: AnyObject {
    /// For the event loop to watch.
    var fileDescriptor: Int32 { get }
    func send(_ bytes: [UInt8]) throws(SystemError)
    /// One datagram; nil when none is waiting. Errors are the socket's
    /// (ENOBUFS: the kernel dropped messages meant for this socket).
    func receive() throws(SystemError) -> [UInt8]?
}
