import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// The central's own connection (without accessoryd): the same L2CAP socket
/// code, waited for with a blocking readiness wait since the lab tool has no event loop.
enum CentralConnection {
    static func connect(
        from controller: BluetoothAddress, to peer: BluetoothDeviceIdentifier, security: L2CAPSecurity.Level? = nil
    ) throws -> Int32 {
        let fd = try L2CAPSocket.bound(controller: controller, kind: .attribute)
        if let security {
            do { try L2CAPSocket.requireSecurity(security, fd: fd) } catch {
                L2CAPSocket.close(fd)
                throw error
            }
        }
        if try L2CAPSocket.startConnect(fd: fd, peer: peer, kind: .attribute) { return fd }
        let ready = (try? Readiness.wait(for: .writable, on: [fd], timeoutMilliseconds: 20_000)) ?? []
        if let error = L2CAPSocket.pendingError(fd: fd) {
            L2CAPSocket.close(fd)
            throw error
        }
        guard !ready.isEmpty else {
            L2CAPSocket.close(fd)
            throw L2CAPConnectionError.timedOut
        }
        return fd
    }
}
