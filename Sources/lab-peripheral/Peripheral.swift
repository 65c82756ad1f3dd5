import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// `serve`: advertise, accept centrals on the ATT fixed channel (and on an
/// LE PSM if given: ATT over a connection-oriented channel), answer them from
/// the database, one poll loop for the listeners, every client and, with
/// `--control`, the check's commands for the advertising (`AirCommand`).
struct Peripheral {
    let controller: BluetoothControllerInfo
    var advertiser: LabAdvertiser
    let database: GATTDatabase
    let psm: UInt16?
    let control: AirControlSocket?
    /// With `--irk`: the resolvable private addresses advertised from.
    var rotation: AddressRotation?
    var pairing: PairingResponder? = nil

    mutating func run() throws -> Never {
        var listeners = [try L2CAPSocket.listening(controller: controller.address, kind: .attribute)]
        if let psm { listeners.append(try L2CAPSocket.listening(controller: controller.address, kind: .psm(psm))) }
        // The lab's sensor, not accessoryd: a clock of its own for the beacon (README "Time").
        let clock = ContinuousClock()
        var nextRotation: ContinuousClock.Instant?
        if let rotation {
            try advertiser.rotate(to: rotation.address, number: rotation.count, advertising: true)
            nextRotation = rotation.interval.map { clock.now.advanced(by: $0) }
        } else {
            try advertiser.start()
        }
        StandardOutput.write("serving \(controller.name) \(controller.address)/public\n")
        if let rotation { StandardOutput.write("address \(rotation.address)/random rotation \(rotation.count)\n") }
        var clients: [Int32: GATTServer] = [:]
        var air = AirCommand.on
        var nextBeacon: ContinuousClock.Instant?
        while true {
            var timeout: Int32 = -1
            if let due = [nextBeacon, nextRotation].compactMap({ $0 }).min() {
                let left = clock.now.duration(to: due).components
                timeout = Int32(clamping: max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000))
            }
            let watched = listeners + clients.keys + (control.map { [$0.fd] } ?? []) + (pairing.map { [$0.fd] } ?? [])
            let ready = try Readiness.wait(for: .readable, on: watched, timeoutMilliseconds: timeout)
            if let due = nextRotation, var turning = rotation, clock.now >= due {
                turning.rotate()
                rotation = turning
                try advertiser.rotate(to: turning.address, number: turning.count, advertising: air.advertising)
                StandardOutput.write("address \(turning.address)/random rotation \(turning.count)\n")
                nextRotation = turning.interval.map { clock.now.advanced(by: $0) }
            }
            if let due = nextBeacon, case .beacon(let milliseconds) = air, clock.now >= due {
                // Off and on again: btvirt reports an advertiser when its advertising is enabled.
                if clients.isEmpty {
                    try advertiser.setAdvertising(false)
                    try advertiser.setAdvertising(true)
                }
                nextBeacon = clock.now.advanced(by: .milliseconds(milliseconds))
            }
            for descriptor in ready {
                if let pairing, descriptor == pairing.fd {
                    pairing.readAvailable()
                } else if let control, descriptor == control.fd {
                    guard let (connection, text) = control.accept() else { continue }
                    if text.split(separator: "\n").first == "hold", var holding = rotation {
                        holding.hold()
                        rotation = holding
                        nextRotation = nil
                        StandardOutput.write("holding \(holding.address)/random rotation \(holding.count)\n")
                        AirControlSocket.reply(connection, "ok holding \(holding.address)/random rotation \(holding.count)")
                        continue
                    }
                    guard let command = AirCommand(text: text) else {
                        AirControlSocket.reply(connection, "error: not a command: \(text)")
                        continue
                    }
                    do {
                        try advertiser.setAdvertising(command.advertising)
                        air = command
                        if case .beacon(let milliseconds) = command {
                            nextBeacon = clock.now.advanced(by: .milliseconds(milliseconds))
                        } else {
                            nextBeacon = nil
                        }
                        StandardOutput.write("advertising \(command)\n")
                        AirControlSocket.reply(connection, "ok \(command)")
                    } catch {
                        AirControlSocket.reply(connection, "error: \(error)")
                    }
                } else if listeners.contains(descriptor) {
                    let (fd, peer) = try L2CAPSocket.accept(listener: descriptor)
                    clients[fd] = GATTServer(database: database)
                    StandardOutput.write("connected \(peer.map(String.init(describing:)) ?? "?")\n")
                    // Another central may come while this one stays.
                    if air.advertising { advertiser.resume() }
                } else if var server = clients[descriptor] {
                    let socket = PacketSocket(fd: descriptor)
                    do {
                        let request = try socket.receive(timeoutSeconds: 0)
                        // Asked per request: the central may encrypt the link at any time.
                        let encrypted = (try? L2CAPSocket.security(fd: descriptor))?.isEncrypted ?? false
                        if let response = server.respond(to: request, encrypted: encrypted) { try socket.send(response) }
                        clients[descriptor] = server
                    } catch {
                        clients.removeValue(forKey: descriptor)
                        L2CAPSocket.close(descriptor)
                        StandardOutput.write("disconnected (\(error))\n")
                        // Off the air stays off: a connection's end does not undo a check's "off".
                        if air.advertising { advertiser.resume() }
                    }
                }
            }
        }
    }
}
