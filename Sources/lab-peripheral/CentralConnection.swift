import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Glibc

/// The central's own connection (without accessoryd): the same L2CAP socket
/// code, waited for with poll since the lab tool has no event loop.
enum CentralConnection {
    static func connect(from controller: BluetoothAddress, to peer: BluetoothDeviceIdentifier) throws -> Int32 {
        let fd = try L2CAPSocket.bound(controller: controller, kind: .attribute)
        if try L2CAPSocket.startConnect(fd: fd, peer: peer, kind: .attribute) { return fd }
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = retryingOnInterrupt { poll(&descriptor, 1, 20_000) }
        if let error = L2CAPSocket.pendingError(fd: fd) {
            close(fd)
            throw error
        }
        guard descriptor.revents & Int16(POLLOUT) != 0 else {
            close(fd)
            throw L2CAPConnectionError.timedOut
        }
        return fd
    }
}
