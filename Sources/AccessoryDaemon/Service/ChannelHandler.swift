import AccessoryCore
import AccessoryPlatform
import AccessoryWire
import Logging

/// `Session1.OpenBluetoothChannel`: handing an app a connected Bluetooth LE
/// channel to its own accessory. accessoryd, which has the privileges,
/// connects; the app gets the socket (`h`) and speaks ATT or its own
/// protocol over it, with no capability of its own. The daemon keeps its
/// copy so that a removal or revocation can shut the channel down under the app.
final class ChannelHandler {
    /// Connects the channels; nil without Bluetooth.
    var broker: ChannelBroker?
    private let connection: BusConnection
    private let center: AuthorizationCenter
    private let logger: Logger

    init(connection: BusConnection, center: AuthorizationCenter, logger: Logger) {
        self.connection = connection
        self.center = center
        self.logger = logger
    }

    /// `OpenBluetoothChannel(o accessory, q psm) → h`: psm 0 is the ATT fixed channel.
    func open(_ call: BusMessage, _ session: ServiceSession) throws(AccessorySetupError) -> BusConnection.MethodOutcome? {
        let id = try BusArguments.accessory(call)
        let psm = try BusArguments.read { () throws(BusError) in try call.readUInt16() }
        let grant = try center.usableGrant(id, of: session)
        guard let peer = grant.bluetooth else {
            throw AccessorySetupError(.invalidRequest, reason: .message("accessory \(DisplayText.escaped(grant.displayName)) is not a Bluetooth accessory; a channel needs one"))
        }
        guard let broker else {
            throw AccessorySetupError(.connectionFailed, reason: .message("Bluetooth is off in this accessoryd"))
        }
        broker.open(accessory: id, peer: peer, kind: psm == 0 ? .attribute : .psm(psm)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel):
                // The session may have ended while connecting: then nobody gets it.
                guard session.state == .active, let reply = connection.reply(to: call) else {
                    broker.close(channel: channel.id)
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
                connection.sendError(ServiceReplies.busError(AccessorySetupError(.connectionFailed, reason: .message("\(error)"))), to: call)
            }
        }
        return .deferred
    }

    /// The session's channels end with it.
    func close(of session: ServiceSession) {
        for channel in session.channels { broker?.close(channel: channel) }
        session.channels.removeAll()
    }

    /// Removal revokes every handle the app holds on the accessory.
    func revoke(accessory id: AccessoryID) { broker?.revoke(accessory: id) }
}
