import AccessoryCore
import AccessoryPlatform
import AccessoryRadios

/// A connected L2CAP LE channel the broker opened for an accessory.
public struct BrokeredChannel: Hashable, Sendable, CustomStringConvertible {
    /// Unique for the daemon's lifetime.
    public let id: UInt64
    public let accessory: AccessoryID
    public let peer: BluetoothDeviceIdentifier
    public let kind: L2CAPChannelKind
    /// The controller it was opened from (`hci0`).
    public let controller: String
    /// The daemon's copy of the socket, owned by the broker until the channel
    /// is closed or revoked: hand the app a duplicate (sd-bus duplicates a
    /// unix fd it appends), never this number to close.
    public let fd: Int32

    public var description: String { "channel \(id) \(peer) \(kind) via \(controller)" }
}
