import Glibc

/// The socket type and flag constants of <sys/socket.h>, from one place.
/// Glibc's headers are not modular: whichever clang module includes
/// <sys/socket.h> first owns `SOCK_DGRAM` and its kin (in AccessoryRadios
/// that is CBluetooth, as BlueZ's headers include it), and a file that imports
/// Glibc alone then cannot see them, depending on build order. This target
/// sees no BlueZ header, so these can always be seen.
public enum SocketType {
    public static let stream = Int32(SOCK_STREAM.rawValue)
    public static let datagram = Int32(SOCK_DGRAM.rawValue)
    public static let raw = Int32(SOCK_RAW.rawValue)
    public static let sequencedPacket = Int32(SOCK_SEQPACKET.rawValue)
    /// Flags or-ed into the type.
    public static let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
    public static let nonBlocking = Int32(SOCK_NONBLOCK.rawValue)
}
