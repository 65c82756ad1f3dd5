import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// Why the broker could not open a channel to an accessory. On the bus every
/// case is `org.accessoryagent.Error.connectionFailed`, with `description` as
/// the reason.
public enum ChannelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No Bluetooth LE controller is up to connect from.
    case noController
    /// The controller asked for is not there, is down, or has no LE.
    case noSuchController(String)
    /// The controller already holds links to `limit` peers (see `ChannelBroker.defaultConnectionLimit`).
    case connectionLimitReached(controller: String, limit: Int)
    /// The accessory's ATT channel is already open (or opening) through the
    /// broker: the kernel allows one per link.
    case attributeChannelInUse(BluetoothDeviceIdentifier)
    /// The kernel or the peer said no, or the attempt timed out.
    case connectionFailed(L2CAPConnectionError)
    /// The accessory was revoked while the connection was being made.
    case revoked

    public var description: String {
        switch self {
        case .noController: "no Bluetooth LE controller is up"
        case .noSuchController(let name): "no such controller: \(name)"
        case .connectionLimitReached(let controller, let limit):
            "connection limit reached on \(controller) (limit \(limit))"
        case .attributeChannelInUse(let peer): "the ATT channel to \(peer) is already open"
        case .connectionFailed(let reason): "connection failed: \(reason)"
        case .revoked: "accessory revoked"
        }
    }
}
