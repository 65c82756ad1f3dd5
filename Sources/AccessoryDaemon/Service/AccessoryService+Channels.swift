import AccessoryCore
import AccessoryPlatform

/// Handing an app a connected Bluetooth LE channel to its own accessory:
/// accessoryd, which has the privileges, connects; the app gets the socket
/// (`h`) and speaks ATT or its own protocol over it, with no capability of
/// its own. The daemon keeps its copy so that a removal or revocation can
/// shut the channel down under the app.
extension AccessoryService {
    /// `OpenBluetoothChannel(o accessory, q psm) → h`: psm 0 is the ATT fixed channel.
    func openBluetoothChannel(_ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        let id = try BusArguments.accessory(call)
        let psm = try BusArguments.read { () throws(BusError) in try call.readUInt16() }
        let grant = try usableGrant(id, of: session)
        guard let peer = grant.bluetooth else {
            throw AccessorySetupError(.invalidRequest, reason: .message("accessory \(DisplayText.escaped(grant.displayName)) is not a Bluetooth accessory; a channel needs one"))
        }
        guard let channels else {
            throw AccessorySetupError(.connectionFailed, reason: .message("Bluetooth is off in this accessoryd"))
        }
        channels.open(accessory: id, peer: peer, kind: psm == 0 ? .attribute : .psm(psm)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel):
                // The session may have ended while connecting: then nobody gets it.
                guard session.state == .active, let reply = connection.reply(to: call) else {
                    channels.close(channel: channel.id)
                    return
                }
                session.channels.insert(channel.id)
                reply.append(fileDescriptor: channel.fd)
                connection.send(reply)
                logger.log(.bluetoothChannelOpened, level: .info, "\(session.app) got a channel to \(grant.displayName)",
                           metadata: ["app": "\(session.app)", "accessory.id": "\(id)", "channel": "\(channel.id)",
                                      "controller": "\(channel.controller)", "psm": "\(psm)"])
            case .failure(let error):
                logger.log(.bluetoothChannelFailed, level: .notice, "No channel to \(grant.displayName) for \(session.app): \(error)",
                           metadata: ["app": "\(session.app)", "accessory.id": "\(id)", "error": "\(error)"])
                connection.sendError(busError(AccessorySetupError(.connectionFailed, reason: .message("\(error)"))), to: call)
            }
        }
        return .deferred
    }

    /// The session's channels end with it.
    func closeChannels(of session: ServiceSession) {
        for channel in session.channels { channels?.close(channel: channel) }
        session.channels.removeAll()
    }
}
