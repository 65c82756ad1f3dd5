import AccessoryCore
import AccessoryPlatform
import AccessoryRadios
import Glibc

/// `serve`: advertise, accept centrals on the ATT fixed channel (and on an
/// LE PSM if given: ATT over a connection-oriented channel), answer them from
/// the database, one poll loop for the listeners and every client.
struct Peripheral {
    let controller: BluetoothControllerInfo
    let advertiser: LabAdvertiser
    let database: GATTDatabase
    let psm: UInt16?

    func run() throws -> Never {
        var listeners = [try L2CAPSocket.listening(controller: controller.address, kind: .attribute)]
        if let psm { listeners.append(try L2CAPSocket.listening(controller: controller.address, kind: .psm(psm))) }
        try advertiser.start()
        StandardOutput.write("serving \(controller.name) \(controller.address)/public\n")
        var clients: [Int32: GATTServer] = [:]
        while true {
            var descriptors = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                + clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = retryingOnInterrupt { poll(&descriptors, nfds_t(descriptors.count), -1) }
            guard ready > 0 else { throw SystemError.last("poll") }
            for descriptor in descriptors where descriptor.revents != 0 {
                if listeners.contains(descriptor.fd) {
                    let (fd, peer) = try L2CAPSocket.accept(listener: descriptor.fd)
                    clients[fd] = GATTServer(database: database)
                    StandardOutput.write("connected \(peer.map(String.init(describing:)) ?? "?")\n")
                    // Another central may come while this one stays.
                    advertiser.resume()
                } else if var server = clients[descriptor.fd] {
                    let socket = PacketSocket(fd: descriptor.fd)
                    do {
                        let request = try socket.receive(timeoutSeconds: 0)
                        if let response = server.respond(to: request) { try socket.send(response) }
                        clients[descriptor.fd] = server
                    } catch {
                        clients.removeValue(forKey: descriptor.fd)
                        close(descriptor.fd)
                        StandardOutput.write("disconnected (\(error))\n")
                        advertiser.resume()
                    }
                }
            }
        }
    }
}
