import Glibc

/// Reads a secret from a descriptor (stdin), never from argv where `ps` shows it.
public enum SecretInput {
    /// The bytes up to the first newline (not included), reading one byte at a
    /// time so whatever follows stays unread; nil at end of input before any
    /// newline and with nothing read. At most `limit` bytes.
    public static func readLine(fd: Int32 = 0, limit: Int = 512) throws(SystemError) -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = retryingOnInterrupt { read(fd, &byte, 1) }
            if count < 0 { throw SystemError.last("read(stdin)") }
            if count == 0 { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { return line }
            guard line.count < limit else { throw SystemError(operation: "read(stdin)", errno: E2BIG) }
            line.append(byte)
        }
    }

    /// Reads and discards what is waiting; true at end of input.
    public static func drainReachedEnd(fd: Int32 = 0) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        return count == 0 || (count < 0 && errno != EAGAIN)
    }
}
