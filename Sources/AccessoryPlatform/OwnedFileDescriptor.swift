import Glibc

/// A descriptor this process owns, closed when released: for code above
/// AccessoryPlatform that holds one (a Bluetooth channel handed over by
/// accessoryd) and makes no syscalls itself.
public final class OwnedFileDescriptor: Sendable {
    public let rawValue: Int32

    /// Takes over `rawValue`: nobody else closes it.
    public init(adopting rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }
}
