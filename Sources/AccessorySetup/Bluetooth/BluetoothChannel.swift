import AccessoryPlatform

/// A connected Bluetooth LE channel to one of the app's accessories, opened
/// by accessoryd and handed over: the ATT channel, or a connection-oriented
/// channel on a PSM. The app needs no capability of its own to use it.
/// Closing it (or releasing it) ends the app's end; removing the accessory
/// ends it from accessoryd's side too.
public final class BluetoothChannel: Sendable {
    private let socket: OwnedFileDescriptor

    /// The connected L2CAP socket (SOCK_SEQPACKET: one read, one PDU).
    public var fileDescriptor: Int32 { socket.rawValue }

    init(fileDescriptor: Int32) { socket = OwnedFileDescriptor(adopting: fileDescriptor) }
}
