import AccessoryPlatform
import CBluetooth
import Glibc

/// An LE link's security as an L2CAP socket tells it (`BT_SECURITY`): the
/// level the channel holds and the size of the link's encryption key, 0
/// while the link is not encrypted. An accessory that protects a
/// characteristic answers ATT requests on an unencrypted link with
/// Insufficient Authentication or Insufficient Encryption.
public struct L2CAPSecurity: Hashable, Sendable {
    /// The kernel's `BT_SECURITY_*` levels. For LE: `low` is no encryption,
    /// `medium` encryption with an unauthenticated key (Just Works), `high`
    /// an authenticated one (passkey or numeric comparison), `fips` LE
    /// Secure Connections with an authenticated key.
    public enum Level: UInt8, Hashable, Sendable {
        case sdp = 0, low, medium, high, fips
    }

    public var level: Level
    public var keySize: UInt8

    public var isEncrypted: Bool { keySize > 0 }
}

extension L2CAPSocket {
    /// Asks for at least `level` on a socket not yet connected: the kernel
    /// then encrypts the link with the bond's key before the channel opens,
    /// or pairs first when there is no bond.
    public static func requireSecurity(_ level: L2CAPSecurity.Level, fd: Int32) throws(SystemError) {
        var security = bt_security(level: level.rawValue, key_size: 0)
        guard setsockopt(fd, Int32(SOL_BLUETOOTH), Int32(BT_SECURITY), &security,
                         socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
            throw SystemError.last("setsockopt(BT_SECURITY)")
        }
    }

    /// The security a connected socket's link has now.
    public static func security(fd: Int32) throws(SystemError) -> L2CAPSecurity {
        var security = bt_security()
        var length = socklen_t(MemoryLayout<bt_security>.size)
        guard getsockopt(fd, Int32(SOL_BLUETOOTH), Int32(BT_SECURITY), &security, &length) == 0 else {
            throw SystemError.last("getsockopt(BT_SECURITY)")
        }
        return L2CAPSecurity(level: L2CAPSecurity.Level(rawValue: security.level) ?? .low, keySize: security.key_size)
    }
}
