import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

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
            let ready = try Readiness.wait(for: .readable, on: listeners + clients.keys, timeoutMilliseconds: -1)
            for descriptor in ready {
                if listeners.contains(descriptor) {
                    let (fd, peer) = try L2CAPSocket.accept(listener: descriptor)
                    clients[fd] = GATTServer(database: database)
                    StandardOutput.write("connected \(peer.map(String.init(describing:)) ?? "?")\n")
                    // Another central may come while this one stays.
                    advertiser.resume()
                } else if var server = clients[descriptor] {
                    let socket = PacketSocket(fd: descriptor)
                    do {
                        let request = try socket.receive(timeoutSeconds: 0)
                        if let response = server.respond(to: request) { try socket.send(response) }
                        clients[descriptor] = server
                    } catch {
                        clients.removeValue(forKey: descriptor)
                        L2CAPSocket.close(descriptor)
                        StandardOutput.write("disconnected (\(error))\n")
                        advertiser.resume()
                    }
                }
            }
        }
    }
}
