import Glibc

/// A failed system call or C library call: which one, and errno.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public var operation: String
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Captures the thread's current errno.
    public static func last(_ operation: String) -> SystemError {
        SystemError(operation: operation, errno: Glibc.errno)
    }

    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}
